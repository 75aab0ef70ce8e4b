// The seat's evaluations of one challenge: the challenger and the incumbent, each repeat a child evaluateSubmission
// with its own seed. Two schedules: interleaved (the two sides of a repeat in lockstep, scenario by scenario:
// workflows/paired-scenarios.ts) and the older sequential one. Either way the challenger's first evaluation goes
// through pre-evaluation alone: a rejected pack costs no incumbent run. A child that fails is an incomplete
// evaluation, never a score.
import { executeChild, startChild, workflowInfo } from '@temporalio/workflow';
import type { Pairing } from '../contracts/pairing.ts';
import type { EvaluationResult } from '../contracts/results.ts';
import type { Challenge, Incumbent, ScoredEvaluation, SeatConfig } from '../contracts/seat.ts';
import type { Submission } from '../contracts/submission.ts';
import { evaluationWorkflowId } from '../contracts/temporal-names.ts';
import type { evaluateSubmission } from './evaluate-submission.ts';
import { reachedGate, runInLockstep, type PairedChild, type PairingBoard } from './paired-scenarios.ts';
import { childEvaluationMetadata } from './run-metadata.ts';

/** A side of a challenge: the challenger, or the incumbent it is measured against. */
type Side = { packHash: string; url: string; hotkey: string };
type Role = 'challenger' | 'incumbent';

/** Which evaluation of which challenge: the decision's number and the repeat (its seed offset). */
interface Slot {
  number: number;
  repeat: number;
}

/** The evaluations of a challenge: the challenger's first, its other repeats, the incumbent's repeats. */
export interface ChallengeRuns {
  first: ScoredEvaluation;
  challengerRest: ScoredEvaluation[];
  incumbentRuns: ScoredEvaluation[];
}

/** The old schedule: the challenger's first evaluation whole, then the rest side by side. */
export async function sequentialRuns(
  config: SeatConfig,
  challenge: Challenge,
  incumbent: Incumbent | null,
  number: number,
  repeats: number[],
): Promise<ChallengeRuns> {
  const first = await evaluate(config, challenge, 'challenger', { number, repeat: 0 });
  if (first.status !== 'completed') return { first, challengerRest: [], incumbentRuns: [] };
  const [challengerRest, incumbentRuns] = await Promise.all([
    Promise.all(repeats.slice(1).map((repeat) => evaluate(config, challenge, 'challenger', { number, repeat }))),
    incumbent
      ? Promise.all(repeats.map((repeat) => evaluate(config, incumbent, 'incumbent', { number, repeat })))
      : Promise.resolve([]),
  ]);
  return { first, challengerRest, incumbentRuns };
}

/**
 * Fair pairing: each repeat's two evaluations run in lockstep, scenario by scenario. The
 * challenger's first still goes through pre-evaluation alone: a rejected pack costs no incumbent run.
 */
export async function interleavedRuns(
  config: SeatConfig,
  board: PairingBoard,
  challenge: Challenge,
  incumbent: Incumbent,
  number: number,
  repeats: number[],
): Promise<ChallengeRuns> {
  board.begin(number);
  const firstChild = await startPaired(config, challenge, 'challenger', { number, repeat: 0 });
  if (!(await reachedGate(board, 0, firstChild)))
    return { first: await firstChild.result, challengerRest: [], incumbentRuns: [] };
  const window = config.pairedWindow ?? 2;
  const pairs = await Promise.all(
    repeats.map(async (repeat) => {
      const [challengerChild, incumbentChild] = await Promise.all([
        repeat === 0 ? Promise.resolve(firstChild) : startPaired(config, challenge, 'challenger', { number, repeat }),
        startPaired(config, incumbent, 'incumbent', { number, repeat }),
      ]);
      return runInLockstep(board, repeat, challengerChild, incumbentChild, window);
    }),
  );
  return {
    first: pairs[0]![0],
    challengerRest: pairs.slice(1).map(([challenger]) => challenger),
    incumbentRuns: pairs.map(([, incumbentRun]) => incumbentRun),
  };
}

/** One side's evaluation, run to its end as a child workflow. */
async function evaluate(config: SeatConfig, side: Side, role: Role, slot: Slot): Promise<ScoredEvaluation> {
  const submission = submissionFor(config, side, role, slot);
  try {
    const result = await executeChild<typeof evaluateSubmission>('evaluateSubmission', {
      workflowId: evaluationWorkflowId(submission.submissionId),
      args: [submission],
      ...childEvaluationMetadata(submission, role, slot.number, slot.repeat),
    });
    return toScored(result);
  } catch (error) {
    // A failed child is an infrastructure problem: the evaluation is incomplete, never a score.
    return incompleteOf(side, submission);
  }
}

/** A paired side's child, started; its result never rejects (a failed child is incomplete). */
async function startPaired(config: SeatConfig, side: Side, role: Role, slot: Slot): Promise<PairedChild> {
  const submission = submissionFor(config, side, role, slot, {
    coordinatorWorkflowId: workflowInfo().workflowId,
    challenge: slot.number,
    pair: slot.repeat,
    side: role,
  });
  let settled = false;
  try {
    const handle = await startChild<typeof evaluateSubmission>('evaluateSubmission', {
      workflowId: evaluationWorkflowId(submission.submissionId),
      args: [submission],
      ...childEvaluationMetadata(submission, role, slot.number, slot.repeat),
    });
    const result = handle
      .result()
      .then(toScored, () => incompleteOf(side, submission))
      .finally(() => {
        settled = true;
      });
    return { side: role, handle, result, settled: () => settled };
  } catch {
    return { side: role, result: Promise.resolve(incompleteOf(side, submission)), settled: () => true };
  }
}

function submissionFor(config: SeatConfig, side: Side, role: Role, slot: Slot, pairing?: Pairing): Submission {
  return {
    submissionId: `seat-${config.netuid}-${slot.number}-${role}-${side.packHash.slice(0, 12)}-r${slot.repeat}`,
    pack: { kind: 'url', url: side.url, sha256: side.packHash },
    agent: config.agent,
    scenarios: config.scenarios,
    scenariosDir: config.scenariosDir,
    seed: config.seed + slot.repeat,
    hotkey: side.hotkey,
    ...(pairing ? { pairing } : {}),
  };
}

function incompleteOf(side: Side, submission: Submission): ScoredEvaluation {
  return {
    packHash: side.packHash,
    workflowId: evaluationWorkflowId(submission.submissionId),
    status: 'incomplete',
    testsPassed: 0,
    testsTotal: 0,
    perScenario: [],
  };
}

/** What the decision rule sees of an evaluation. */
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
