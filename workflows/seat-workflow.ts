// seat: one long-lived workflow per subnet. It holds the incumbent, admits challenges (an update)
// into a queue, and takes them one at a time: evaluate the challenger and re-evaluate the
// incumbent beside it (child evaluateSubmission workflows, paired by seed and, by default, run in
// lockstep scenario by scenario: workflows/seat-evaluations.ts), decide by the decision rule
// (workflows/seat-decision.ts), record the decision with its evidence, apply it. Continues-as-new
// between challenges.
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  patched,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  upsertMemo,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import { z } from 'zod';
import {
  challengeSchema,
  seatConfigSchema,
  type Challenge,
  type ChallengeOffer,
  type SeatState,
  type SeatView,
} from '../contracts/seat.ts';
import { challengeUpdate, configureUpdate, seatQuery } from '../contracts/seat-signals.ts';
import { hotkeyRefusal, recordAcceptance } from './seat-admission.ts';
import { seatDetails, summarized } from './run-metadata.ts';
import { PairingBoard } from './paired-scenarios.ts';
import { applyDecision, decide, type ChallengeOutcome } from './seat-decision.ts';
import { interleavedRuns, sequentialRuns, type ChallengeRuns } from './seat-evaluations.ts';

const maxQueue = 500;
/** Marks seats that pair in lockstep, so a decision begun by an older worker replays the old way. */
const interleavedPairingPatch = 'seat-interleaved-pairing';

const records = summarized(
  proxyActivities<Activities>({
    startToCloseTimeout: '1 minute',
    retry: { maximumAttempts: 5, initialInterval: '1 second' },
  }),
);

export async function seat(state: SeatState): Promise<never> {
  state.incompleteAttempts ??= {}; // states carried from before the field existed
  setHandler(seatQuery, () => view(state));
  const board = new PairingBoard();
  // Published before the updates are admitted: an update that came with the start runs as soon as its handler is set.
  publish(state);
  admit(state);
  for (;;) {
    await workArrives(state);
    if (state.current === null && shouldContinueAsNew(state)) await continueAsNewWhenIdle(state);
    const challenge = takeNext(state);
    const runs = await evaluatePair(state, board, challenge);
    const outcome = decide(state, challenge, runs);
    outcome.record.evidence = await recordDecision(state, challenge, outcome);
    applyDecision(state, challenge, outcome.record);
    publish(state);
  }
}

/** The updates the seat takes: new settings (applied between challenges) and challenges (queued or refused). */
function admit(state: SeatState): void {
  setHandler(
    configureUpdate,
    (next) => {
      state.pendingConfig = next;
      return next;
    },
    {
      validator(next) {
        const parsed = seatConfigSchema.parse(next);
        if (parsed.netuid !== state.config.netuid)
          throw new Error(
            `this seat is subnet ${state.config.netuid}; a configuration for subnet ${parsed.netuid} belongs to another seat`,
          );
      },
    },
  );
  setHandler(
    challengeUpdate,
    (challenges) => {
      const offers = challenges.map((challenge) => offer(state, challenge));
      publish(state);
      return offers;
    },
    {
      validator(challenges) {
        z.array(challengeSchema).max(maxQueue).parse(challenges);
      },
    },
  );
}

/** A challenge queued by commitment block, or refused with the reason. Workflow time: deterministic on replay. */
function offer(state: SeatState, challenge: Challenge): ChallengeOffer {
  const { packHash } = challenge;
  const intervalSec = state.config.minSubmissionIntervalSec ?? 0;
  if (state.incumbent?.packHash === packHash) return { packHash, accepted: false, reason: 'already seated' };
  if (state.current?.packHash === packHash) return { packHash, accepted: false, reason: 'being evaluated now' };
  if (state.queue.some((c) => c.packHash === packHash)) return { packHash, accepted: false, reason: 'already queued' };
  if (state.decided.includes(packHash)) return { packHash, accepted: false, reason: 'already decided' };
  const limited = hotkeyRefusal(state, challenge, intervalSec, Date.now());
  if (limited) return limited;
  if (state.queue.length >= maxQueue)
    return { packHash, accepted: false, reason: `the queue is full (${maxQueue}); offer it again later` };
  // Earlier commitments go first; a stable insert keeps offers of the same block in order.
  const at = state.queue.findIndex((c) => c.commitBlock > challenge.commitBlock);
  state.queue.splice(at < 0 ? state.queue.length : at, 0, challenge);
  recordAcceptance(state, challenge.hotkey, intervalSec, Date.now());
  return { packHash, accepted: true, reason: `queued at position ${at < 0 ? state.queue.length : at + 1}` };
}

/** Waits for a challenge to take (or one to finish, after a continue-as-new), or for the history to grow too long. */
function workArrives(state: SeatState): Promise<void> {
  return condition(() => state.current !== null || state.queue.length > 0 || shouldContinueAsNew(state));
}

function shouldContinueAsNew(state: SeatState): boolean {
  return workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > state.config.maxHistoryEvents;
}

/** Lets in-flight updates finish so no offer is lost, then carries everything forward. */
async function continueAsNewWhenIdle(state: SeatState): Promise<never> {
  await condition(allHandlersFinished);
  return continueAsNew<typeof seat>(state);
}

/** The challenge to decide: the one begun before a continue-as-new, else the next queued, under the newest settings.
 * Settings change only between challenges, so both sides of a pairing run alike. */
function takeNext(state: SeatState): Challenge {
  if (state.current === null && state.pendingConfig) {
    state.config = state.pendingConfig;
    state.pendingConfig = null;
  }
  const challenge = state.current ?? state.queue.shift()!;
  state.current = challenge;
  return challenge;
}

/** The challenger's evaluations and the incumbent's beside them, interleaved unless the settings say sequential. */
async function evaluatePair(state: SeatState, board: PairingBoard, challenge: Challenge): Promise<ChallengeRuns> {
  const { config, incumbent } = state;
  const number = state.decisions + 1;
  const repeats = Array.from({ length: config.repeats }, (_, r) => r);
  // Settings carried from before the field existed pair in lockstep too; the patch keeps
  // decisions an older worker began on the old schedule when their history is replayed.
  const interleave =
    incumbent !== null && (config.pairing ?? 'interleaved') === 'interleaved' && patched(interleavedPairingPatch);
  return interleave
    ? await interleavedRuns(config, board, challenge, incumbent, number, repeats)
    : await sequentialRuns(config, challenge, incumbent, number, repeats);
}

/** Every decision, the seat-moving and the not, is kept with its evidence as a file. */
function recordDecision(state: SeatState, challenge: Challenge, { record, decision, scored }: ChallengeOutcome) {
  const { config } = state;
  record.decidedAt = new Date().toISOString(); // workflow time: deterministic on replay
  return records.recordSeatDecision({
    netuid: config.netuid,
    record,
    challenge,
    decision: decision ?? null,
    evaluations: scored,
    parameters: {
      repeats: config.repeats,
      bootstrapResamples: config.bootstrapResamples,
      confidence: config.confidence ?? 0.95,
      seed: config.seed,
    },
  });
}

function view(state: SeatState): SeatView {
  return {
    netuid: state.config.netuid,
    incumbent: state.incumbent,
    current: state.current,
    queue: state.queue,
    history: state.history,
    decisions: state.decisions,
    config: state.config,
    pendingConfig: state.pendingConfig ?? null,
  };
}

/** What the Web UI shows of the seat: its details, and a memo of who holds it. */
function publish(state: SeatState): void {
  setCurrentDetails(seatDetails(view(state)));
  upsertMemo({
    seat: state.incumbent
      ? {
          packHash: state.incumbent.packHash,
          hotkey: state.incumbent.hotkey,
          testsPassed: state.incumbent.seatedTestsPassed,
          since: state.incumbent.seatedAt,
        }
      : null,
    queued: state.queue.length,
    decisions: state.decisions,
  });
}
