// seat: one long-lived workflow per subnet. It holds the incumbent, takes challenges (an update)
// into a queue, and processes them one at a time: evaluate the challenger and re-evaluate the
// incumbent beside it (child evaluateSubmission workflows, paired by seed and, by default, run in
// lockstep scenario by scenario: workflows/paired-scenarios.ts), apply the decision rule, record the
// decision with its evidence. Continues-as-new between challenges.
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  executeChild,
  patched,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  startChild,
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
  type Decision,
  type Incumbent,
  type ScoredEvaluation,
  type SeatRecord,
  type SeatState,
  type SeatView,
} from '../contracts/seat.ts';
import type { EvaluationResult } from '../contracts/results.ts';
import type { Submission } from '../contracts/submission.ts';
import { evaluationWorkflowId } from '../contracts/temporal-names.ts';
import { decideChallenge } from '../scoring/decision-rule.ts';
import { incumbentAvailability, isTransientRejection } from '../scoring/incumbent-availability.ts';
import { challengeUpdate, configureUpdate, seatQuery } from '../contracts/seat-signals.ts';
import type { evaluateSubmission } from './evaluate-submission.ts';
import { hotkeyRefusal, recordAcceptance } from './seat-admission.ts';
import { childEvaluationMetadata, seatDetails, summarized } from './run-metadata.ts';
import type { Pairing } from '../contracts/pairing.ts';
import { PairingBoard, reachedGate, runInLockstep, type PairedChild } from './paired-scenarios.ts';

const historyKept = 50;
const decidedKept = 5_000;
const maxQueue = 500;
const maxIncompleteAttempts = 3;
/** Marks seats that pair in lockstep, so a decision begun by an older worker replays the old way. */
const interleavedPairingPatch = 'seat-interleaved-pairing';

const records = summarized(
  proxyActivities<Activities>({
    startToCloseTimeout: '1 minute',
    retry: { maximumAttempts: 5, initialInterval: '1 second' },
  }),
);

function short(hash: string): string {
  return hash.slice(0, 12);
}

function toScored(result: EvaluationResult): ScoredEvaluation {
  return {
    packHash: result.packHash ?? '',
    workflowId: result.workflowId,
    status: result.status,
    testsPassed: result.testsPassed,
    testsTotal: result.testsTotal,
    // A scenario with an infrastructure error makes the evaluation incomplete already; the rule
    // sees every scenario either way.
    perScenario: result.perScenario.map((s) => ({
      scenario: s.name,
      testsPassed: s.unverified ? 0 : s.testsPassed,
      testsTotal: s.testsTotal,
      ...(s.unverified ? { unverified: true } : {}),
    })),
    rejectionCodes: result.rejection?.map((r) => r.code),
  };
}

export async function seat(state: SeatState): Promise<never> {
  // Settings change only between challenges, so both sides of a pairing run alike.
  let config = state.config;
  state.incompleteAttempts ??= {}; // states carried from before the field existed
  const now = () => new Date().toISOString(); // workflow time: deterministic on replay

  const view = (): SeatView => ({
    netuid: config.netuid,
    incumbent: state.incumbent,
    current: state.current,
    queue: state.queue,
    history: state.history,
    decisions: state.decisions,
    config,
    pendingConfig: state.pendingConfig ?? null,
  });
  setHandler(seatQuery, view);
  const board = new PairingBoard();

  // Defined before the update handlers: an update that came with the start runs as soon as its
  // handler is set.
  const publish = () => {
    setCurrentDetails(seatDetails(view()));
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
  };
  publish();

  setHandler(
    configureUpdate,
    (next) => {
      state.pendingConfig = next;
      return next;
    },
    {
      validator(next) {
        const parsed = seatConfigSchema.parse(next);
        if (parsed.netuid !== config.netuid)
          throw new Error(
            `this seat is subnet ${config.netuid}; a configuration for subnet ${parsed.netuid} belongs to another seat`,
          );
      },
    },
  );

  const offer = (challenge: Challenge): ChallengeOffer => {
    const { packHash } = challenge;
    if (state.incumbent?.packHash === packHash) return { packHash, accepted: false, reason: 'already seated' };
    if (state.current?.packHash === packHash) return { packHash, accepted: false, reason: 'being evaluated now' };
    if (state.queue.some((c) => c.packHash === packHash))
      return { packHash, accepted: false, reason: 'already queued' };
    if (state.decided.includes(packHash)) return { packHash, accepted: false, reason: 'already decided' };
    const limited = hotkeyRefusal(state, challenge, config.minSubmissionIntervalSec ?? 0, Date.now());
    if (limited) return limited;
    if (state.queue.length >= maxQueue)
      return { packHash, accepted: false, reason: `the queue is full (${maxQueue}); offer it again later` };
    // Earlier commitments go first; a stable insert keeps offers of the same block in order.
    const at = state.queue.findIndex((c) => c.commitBlock > challenge.commitBlock);
    state.queue.splice(at < 0 ? state.queue.length : at, 0, challenge);
    recordAcceptance(state, challenge.hotkey, config.minSubmissionIntervalSec ?? 0, Date.now());
    return { packHash, accepted: true, reason: `queued at position ${at < 0 ? state.queue.length : at + 1}` };
  };
  setHandler(
    challengeUpdate,
    (challenges) => {
      const offers = challenges.map(offer);
      publish();
      return offers;
    },
    {
      validator(challenges) {
        z.array(challengeSchema).max(maxQueue).parse(challenges);
      },
    },
  );

  type Side = { packHash: string; url: string; hotkey: string };
  const submissionFor = (
    challenge: Side,
    role: 'challenger' | 'incumbent',
    number: number,
    repeat: number,
    pairing?: Pairing,
  ): Submission => ({
    submissionId: `seat-${config.netuid}-${number}-${role}-${short(challenge.packHash)}-r${repeat}`,
    pack: { kind: 'url', url: challenge.url, sha256: challenge.packHash },
    agent: config.agent,
    scenarios: config.scenarios,
    scenariosDir: config.scenariosDir,
    seed: config.seed + repeat,
    hotkey: challenge.hotkey,
    ...(pairing ? { pairing } : {}),
  });
  const incompleteOf = (challenge: Side, submission: Submission): ScoredEvaluation => ({
    packHash: challenge.packHash,
    workflowId: evaluationWorkflowId(submission.submissionId),
    status: 'incomplete',
    testsPassed: 0,
    testsTotal: 0,
    perScenario: [],
  });

  const evaluate = async (
    challenge: Side,
    role: 'challenger' | 'incumbent',
    number: number,
    repeat: number,
  ): Promise<ScoredEvaluation> => {
    const submission = submissionFor(challenge, role, number, repeat);
    try {
      const result = await executeChild<typeof evaluateSubmission>('evaluateSubmission', {
        workflowId: evaluationWorkflowId(submission.submissionId),
        args: [submission],
        ...childEvaluationMetadata(submission, role, number, repeat),
      });
      return toScored(result);
    } catch (error) {
      // A failed child is an infrastructure problem: the evaluation is incomplete, never a score.
      return incompleteOf(challenge, submission);
    }
  };

  /** A paired side's child, started; its result never rejects (a failed child is incomplete). */
  const startPaired = async (
    challenge: Side,
    role: 'challenger' | 'incumbent',
    number: number,
    repeat: number,
  ): Promise<PairedChild> => {
    const submission = submissionFor(challenge, role, number, repeat, {
      coordinatorWorkflowId: workflowInfo().workflowId,
      challenge: number,
      pair: repeat,
      side: role,
    });
    let settled = false;
    try {
      const handle = await startChild<typeof evaluateSubmission>('evaluateSubmission', {
        workflowId: evaluationWorkflowId(submission.submissionId),
        args: [submission],
        ...childEvaluationMetadata(submission, role, number, repeat),
      });
      const result = handle
        .result()
        .then(toScored, () => incompleteOf(challenge, submission))
        .finally(() => {
          settled = true;
        });
      return { side: role, handle, result, settled: () => settled };
    } catch {
      return { side: role, result: Promise.resolve(incompleteOf(challenge, submission)), settled: () => true };
    }
  };

  /** The old schedule: the challenger's first evaluation whole, then the rest side by side. */
  const sequentialRuns = async (
    challenge: Challenge,
    incumbent: Incumbent | null,
    number: number,
    repeats: number[],
  ) => {
    const first = await evaluate(challenge, 'challenger', number, 0);
    if (first.status !== 'completed') return { first, challengerRest: [], incumbentRuns: [] };
    const [challengerRest, incumbentRuns] = await Promise.all([
      Promise.all(repeats.slice(1).map((r) => evaluate(challenge, 'challenger', number, r))),
      incumbent ? Promise.all(repeats.map((r) => evaluate(incumbent, 'incumbent', number, r))) : Promise.resolve([]),
    ]);
    return { first, challengerRest, incumbentRuns };
  };

  /**
   * Fair pairing: each repeat's two evaluations run in lockstep, scenario by scenario. The
   * challenger's first still goes through pre-evaluation alone: a rejected pack costs no incumbent run.
   */
  const interleavedRuns = async (challenge: Challenge, incumbent: Incumbent, number: number, repeats: number[]) => {
    board.begin(number);
    const firstChild = await startPaired(challenge, 'challenger', number, 0);
    if (!(await reachedGate(board, 0, firstChild)))
      return { first: await firstChild.result, challengerRest: [], incumbentRuns: [] };
    const window = config.pairedWindow ?? 2;
    const pairs = await Promise.all(
      repeats.map(async (r) => {
        const [challengerChild, incumbentChild] = await Promise.all([
          r === 0 ? Promise.resolve(firstChild) : startPaired(challenge, 'challenger', number, r),
          startPaired(incumbent, 'incumbent', number, r),
        ]);
        return runInLockstep(board, r, challengerChild, incumbentChild, window);
      }),
    );
    return {
      first: pairs[0]![0],
      challengerRest: pairs.slice(1).map(([challenger]) => challenger),
      incumbentRuns: pairs.map(([, incumbentRun]) => incumbentRun),
    };
  };

  const decide = async (
    challenge: Challenge,
  ): Promise<{ record: SeatRecord; decision?: Decision; scored: ScoredEvaluation[] }> => {
    const number = state.decisions + 1;
    const repeats = Array.from({ length: config.repeats }, (_, r) => r);
    const incumbent = state.incumbent;
    // Settings carried from before the field existed pair in lockstep too; the patch keeps
    // decisions an older worker began on the old schedule when their history is replayed.
    const interleave =
      incumbent !== null && (config.pairing ?? 'interleaved') === 'interleaved' && patched(interleavedPairingPatch);
    // The challenger's first evaluation goes through pre-evaluation alone: a rejected pack costs no incumbent run.
    const { first, challengerRest, incumbentRuns } = interleave
      ? await interleavedRuns(challenge, incumbent, number, repeats)
      : await sequentialRuns(challenge, incumbent, number, repeats);
    const base = {
      number,
      packHash: challenge.packHash,
      hotkey: challenge.hotkey,
      decidedAt: '',
      evaluations: [first.workflowId],
    };
    if (first.status !== 'completed') {
      const codes = first.rejectionCodes ?? [];
      const rejected = first.status === 'rejected' && !isTransientRejection(first);
      const reason =
        first.status === 'rejected'
          ? `the challenger was rejected (${codes.join(', ') || 'no reason given'})`
          : `the challenger's evaluation is ${first.status}`;
      const ran = [first, ...challengerRest, ...incumbentRuns];
      return {
        record: {
          ...base,
          evaluations: ran.map((e) => e.workflowId),
          outcome: 'no_decision',
          reason,
          incomplete: !rejected,
          incumbentPackHash: state.incumbent?.packHash,
        },
        scored: ran,
      };
    }
    const challengerRuns = [first, ...challengerRest];
    const evaluations = [...challengerRuns, ...incumbentRuns].map((e) => e.workflowId);
    const challengerMean = challengerRuns.reduce((sum, e) => sum + e.testsPassed, 0) / challengerRuns.length;

    if (!incumbent) {
      const complete = challengerRuns.every((e) => e.status === 'completed');
      return {
        record: {
          ...base,
          evaluations,
          outcome: complete ? 'challenger_takes_seat' : 'no_decision',
          reason: complete
            ? `the seat was empty: seated with ${challengerMean} of ${first.testsTotal} tests passed`
            : 'a repeat of the challenger is incomplete',
          incomplete: !complete,
          challengerTotal: challengerMean,
          testsTotal: first.testsTotal,
        },
        scored: challengerRuns,
      };
    }
    const challengerIncomplete = challengerRuns.some((e) => e.status === 'incomplete');
    const scored = [...challengerRuns, ...incumbentRuns];
    const availability = incumbentAvailability({
      incumbent: incumbentRuns,
      challenger: challengerRuns,
      priorRounds: incumbent.unevaluableRounds ?? 0,
    });
    if (availability.kind === 'evaluated') incumbent.unevaluableRounds = 0;
    if (availability.kind === 'unevaluable') {
      // Counted on the incumbent, never on the challenger: its own evaluation completed.
      incumbent.unevaluableRounds = availability.rounds;
      return {
        record: {
          ...base,
          evaluations,
          outcome: availability.forfeits ? 'challenger_takes_seat' : 'no_decision',
          reason: availability.reason,
          incomplete: false,
          incumbentUnevaluable: true,
          ...(availability.forfeits ? { incumbentForfeits: true } : {}),
          incumbentPackHash: incumbent.packHash,
          challengerTotal: challengerMean,
          testsTotal: first.testsTotal,
        },
        scored,
      };
    }
    const decision: Decision = decideChallenge({
      incumbentPackHash: incumbent.packHash,
      challengerPackHash: challenge.packHash,
      incumbent: incumbentRuns,
      challenger: challengerRuns,
      bootstrapResamples: config.bootstrapResamples,
      // States carried from before the setting existed used the 95% level.
      confidence: config.confidence ?? 0.95,
    });
    return {
      record: {
        ...base,
        evaluations,
        outcome: decision.outcome,
        reason: decision.reason,
        // Only the challenger's own incomplete evaluations count against its tries.
        incomplete: challengerIncomplete,
        incumbentPackHash: incumbent.packHash,
        incumbentTotal: decision.incumbentTotal,
        challengerTotal: decision.challengerTotal,
        testsTotal: decision.maxTotal,
      },
      decision,
      scored,
    };
  };

  const apply = (challenge: Challenge, record: SeatRecord) => {
    state.decisions = record.number;
    state.history = [...state.history, record].slice(-historyKept);
    // An evaluation that could not finish (infrastructure) is the validator's fault, not the
    // miner's: the pack may be offered again by a later cycle, a few times.
    // A challenger held back by an incumbent that could not be evaluated is not used up: it comes
    // again with its count untouched (the incumbent forfeits after a bounded number of these).
    const heldByIncumbent = record.outcome === 'no_decision' && record.incumbentUnevaluable === true;
    const attempts = (state.incompleteAttempts[challenge.packHash] ?? 0) + 1;
    const retryable =
      record.outcome === 'no_decision' && record.incomplete === true && attempts < maxIncompleteAttempts;
    if (retryable) state.incompleteAttempts[challenge.packHash] = attempts;
    else if (!heldByIncumbent) {
      delete state.incompleteAttempts[challenge.packHash];
      state.decided = [...state.decided.filter((h) => h !== challenge.packHash), challenge.packHash].slice(
        -decidedKept,
      );
    }
    if (state.incumbent && record.incumbentTotal !== undefined) state.incumbent.lastTestsPassed = record.incumbentTotal;
    if (record.outcome === 'challenger_takes_seat') {
      state.incumbent = {
        packHash: challenge.packHash,
        url: challenge.url,
        hotkey: challenge.hotkey,
        seatedTestsPassed: record.challengerTotal ?? 0,
        seatedTestsTotal: record.testsTotal ?? 0,
        seatedAt: record.decidedAt,
      };
    }
    state.current = null;
    publish();
  };

  const shouldContinueAsNew = () =>
    workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > config.maxHistoryEvents;

  for (;;) {
    await condition(() => state.current !== null || state.queue.length > 0 || shouldContinueAsNew());
    if (state.current === null && shouldContinueAsNew()) {
      // Let in-flight updates finish so no offer is lost, then carry everything forward.
      await condition(allHandlersFinished);
      await continueAsNew<typeof seat>(state);
    }
    if (state.current === null && state.pendingConfig) {
      state.config = config = state.pendingConfig;
      state.pendingConfig = null;
    }
    const challenge = state.current ?? state.queue.shift()!;
    state.current = challenge;
    const { record, decision, scored } = await decide(challenge);
    record.decidedAt = now();
    // Every decision, the seat-moving and the not, is kept with its evidence as a file.
    const parameters = {
      repeats: config.repeats,
      bootstrapResamples: config.bootstrapResamples,
      confidence: config.confidence ?? 0.95,
      seed: config.seed,
    };
    record.evidence = await records.recordSeatDecision({
      netuid: config.netuid,
      record,
      challenge,
      decision: decision ?? null,
      evaluations: scored,
      parameters,
    });
    apply(challenge, record);
  }
}
