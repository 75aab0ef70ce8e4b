// The seat's decision on one challenge, from its evaluations, and what the decision does to the seat's state. Pure and
// deterministic (no I/O, no clock): the seat workflow calls it between its evaluations and recording the decision.
import type { Challenge, Decision, Incumbent, ScoredEvaluation, SeatRecord, SeatState } from '../contracts/seat.ts';
import { decideChallenge } from '../scoring/decision-rule.ts';
import { incumbentAvailability, isTransientRejection } from '../scoring/incumbent-availability.ts';
import type { ChallengeRuns } from './seat-evaluations.ts';

const historyKept = 50;
const decidedKept = 5_000;
const maxIncompleteAttempts = 3;

/** A decision's record, the decision rule's verdict when it ran, and the evaluations it rests on. */
export interface ChallengeOutcome {
  record: SeatRecord;
  decision?: Decision;
  scored: ScoredEvaluation[];
}

type RecordBase = Pick<SeatRecord, 'number' | 'packHash' | 'hotkey' | 'decidedAt' | 'evaluations'>;

/**
 * The outcome of challenge number `state.decisions + 1`: no decision when the challenger's first evaluation did not
 * complete; the seat when it was empty; a forfeit or a wait when the incumbent could not be evaluated (counted on the
 * incumbent, whose unevaluable rounds this updates); else the decision rule's verdict.
 */
export function decide(state: SeatState, challenge: Challenge, runs: ChallengeRuns): ChallengeOutcome {
  const { first, challengerRest, incumbentRuns } = runs;
  const base: RecordBase = {
    number: state.decisions + 1,
    packHash: challenge.packHash,
    hotkey: challenge.hotkey,
    decidedAt: '',
    evaluations: [first.workflowId],
  };
  if (first.status !== 'completed') return challengerUnfinished(base, runs, state.incumbent);
  const challengerRuns = [first, ...challengerRest];
  const incumbent = state.incumbent;
  if (!incumbent) return emptySeat(base, challengerRuns, incumbentRuns);
  const availability = incumbentAvailability({
    incumbent: incumbentRuns,
    challenger: challengerRuns,
    priorRounds: incumbent.unevaluableRounds ?? 0,
  });
  if (availability.kind === 'evaluated') incumbent.unevaluableRounds = 0;
  if (availability.kind === 'unevaluable') {
    // Counted on the incumbent, never on the challenger: its own evaluation completed.
    incumbent.unevaluableRounds = availability.rounds;
    return incumbentUnevaluable(base, challengerRuns, incumbentRuns, incumbent, availability);
  }
  return ruled(base, challenge, challengerRuns, incumbentRuns, incumbent, state.config);
}

function meanPassed(runs: ScoredEvaluation[]): number {
  return runs.reduce((sum, e) => sum + e.testsPassed, 0) / runs.length;
}

function challengerUnfinished(
  base: RecordBase,
  { first, challengerRest, incumbentRuns }: ChallengeRuns,
  incumbent: Incumbent | null,
): ChallengeOutcome {
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
      incumbentPackHash: incumbent?.packHash,
    },
    scored: ran,
  };
}

function emptySeat(
  base: RecordBase,
  challengerRuns: ScoredEvaluation[],
  incumbentRuns: ScoredEvaluation[],
): ChallengeOutcome {
  const first = challengerRuns[0]!;
  const challengerMean = meanPassed(challengerRuns);
  const complete = challengerRuns.every((e) => e.status === 'completed');
  return {
    record: {
      ...base,
      evaluations: [...challengerRuns, ...incumbentRuns].map((e) => e.workflowId),
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

function incumbentUnevaluable(
  base: RecordBase,
  challengerRuns: ScoredEvaluation[],
  incumbentRuns: ScoredEvaluation[],
  incumbent: Incumbent,
  availability: { reason: string; forfeits: boolean },
): ChallengeOutcome {
  const scored = [...challengerRuns, ...incumbentRuns];
  return {
    record: {
      ...base,
      evaluations: scored.map((e) => e.workflowId),
      outcome: availability.forfeits ? 'challenger_takes_seat' : 'no_decision',
      reason: availability.reason,
      incomplete: false,
      incumbentUnevaluable: true,
      ...(availability.forfeits ? { incumbentForfeits: true } : {}),
      incumbentPackHash: incumbent.packHash,
      challengerTotal: meanPassed(challengerRuns),
      testsTotal: challengerRuns[0]!.testsTotal,
    },
    scored,
  };
}

/** The decision rule over both sides' repeats. */
function ruled(
  base: RecordBase,
  challenge: Challenge,
  challengerRuns: ScoredEvaluation[],
  incumbentRuns: ScoredEvaluation[],
  incumbent: Incumbent,
  config: SeatState['config'],
): ChallengeOutcome {
  const scored = [...challengerRuns, ...incumbentRuns];
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
      evaluations: scored.map((e) => e.workflowId),
      outcome: decision.outcome,
      reason: decision.reason,
      // Only the challenger's own incomplete evaluations count against its tries.
      incomplete: challengerRuns.some((e) => e.status === 'incomplete'),
      incumbentPackHash: incumbent.packHash,
      incumbentTotal: decision.incumbentTotal,
      challengerTotal: decision.challengerTotal,
      testsTotal: decision.maxTotal,
    },
    decision,
    scored,
  };
}

/** The decided challenge leaves the seat's hands: history, tries, the decided list, and the seat itself. */
export function applyDecision(state: SeatState, challenge: Challenge, record: SeatRecord): void {
  state.decisions = record.number;
  state.history = [...state.history, record].slice(-historyKept);
  // An evaluation that could not finish (infrastructure) is the validator's fault, not the
  // miner's: the pack may be offered again by a later cycle, a few times.
  // A challenger held back by an incumbent that could not be evaluated is not used up: it comes
  // again with its count untouched (the incumbent forfeits after a bounded number of these).
  const heldByIncumbent = record.outcome === 'no_decision' && record.incumbentUnevaluable === true;
  const attempts = (state.incompleteAttempts[challenge.packHash] ?? 0) + 1;
  const retryable = record.outcome === 'no_decision' && record.incomplete === true && attempts < maxIncompleteAttempts;
  if (retryable) state.incompleteAttempts[challenge.packHash] = attempts;
  else if (!heldByIncumbent) {
    delete state.incompleteAttempts[challenge.packHash];
    state.decided = [...state.decided.filter((h) => h !== challenge.packHash), challenge.packHash].slice(-decidedKept);
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
}
