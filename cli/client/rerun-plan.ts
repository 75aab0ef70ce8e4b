// What a rerun runs and what it reuses: every completed scenario result of the original is offered
// for reuse (keyed by pack hash, scenario content hash, spec, seed and agent; the workflow checks the
// key), except the scenarios named and, with --failed, those that ended infra_error or ceiling_reached.
import type { EvaluationResult, ScenarioStatus } from '../../contracts/results.ts';
import type { ReusedScenario, Submission, SubmissionInput } from '../../contracts/submission.ts';
import { UsageError } from '../usage-error.ts';

/** Never a result: the scenario did not get a verdict, so a rerun always runs it again. */
export const unresolvedStatuses: readonly ScenarioStatus[] = ['infra_error', 'ceiling_reached', 'task_invalid'];

export interface RerunPlan {
  input: SubmissionInput;
  /** Scenarios that will run again. */
  run: string[];
  /** Scenarios whose earlier result is offered for reuse. */
  reused: string[];
  /** Would have been reused, but the original run did not record the scenario's content hash. */
  noHash: string[];
}

export function planRerun(
  original: { workflowId: string; submission: Submission; result: EvaluationResult },
  choice: { scenarios: string[]; failed: boolean },
  submissionId: string,
): RerunPlan {
  const { workflowId, submission, result } = original;
  if (result.status === 'rejected' || !result.packHash)
    throw new UsageError(
      `${workflowId} was rejected before any scenario ran: there is nothing to reuse; \`trl eval\` evaluates the pack again`,
    );
  if (!choice.failed && choice.scenarios.length === 0)
    throw new UsageError('trl rerun needs --failed or --scenario NAME (repeatable): which scenarios to run again');
  const names = new Set(result.perScenario.map((s) => s.name));
  const unknown = choice.scenarios.filter((name) => !names.has(name));
  if (unknown.length)
    throw new UsageError(
      `${workflowId} has no scenario ${unknown.map((n) => `"${n}"`).join(', ')}; it ran ${[...names].join(', ')}`,
    );
  const failed = result.perScenario.filter((s) => unresolvedStatuses.includes(s.status)).map((s) => s.name);
  if (choice.failed && failed.length === 0 && choice.scenarios.length === 0)
    throw new UsageError(
      `${workflowId}: no scenario ended infra_error or ceiling_reached; nothing to rerun with --failed`,
    );

  const chosen = new Set([...choice.scenarios, ...failed]);
  const reuse: ReusedScenario[] = [];
  const noHash: string[] = [];
  for (const scenario of result.perScenario) {
    if (chosen.has(scenario.name)) continue;
    if (!scenario.scenarioHash) {
      noHash.push(scenario.name);
      continue;
    }
    const { reusedFrom, ...rest } = scenario;
    reuse.push({
      // A result reused once keeps naming the run that produced it.
      from: reusedFrom ?? workflowId,
      key: {
        packHash: result.packHash,
        scenarioHash: scenario.scenarioHash,
        spec: result.scenarioSpec ?? null,
        seed: submission.seed,
        agent: submission.agent,
      },
      result: rest,
    });
  }
  const reused = reuse.map((r) => r.result.name);
  return {
    input: { ...unpaired(submission), submissionId, rerunOf: workflowId, reuse },
    run: result.perScenario.map((s) => s.name).filter((name) => !reused.includes(name)),
    reused,
    noHash,
  };
}

export function rerunSubmissionId(
  original: string,
  now: Date,
  suffix: string,
  kind: 'rerun' | 'rescore' = 'rerun',
): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
  const tail = `-${kind}-${stamp}-${suffix}`;
  return original.replace(/-(?:rerun|rescore)-\d{8}T\d{6}-[0-9a-f]+$/, '').slice(0, 128 - tail.length) + tail;
}

/**
 * A rescore: the chosen scenarios (default all) are verified again by today's verifier over their
 * stored agent outputs; the rest are reused as they are. A scenario without a verdict (infra_error,
 * ceiling_reached) has nothing to rescore and runs again, as with `rerun --failed`.
 */
export function planRescore(
  original: { workflowId: string; submission: Submission; result: EvaluationResult },
  scenarios: string[],
  submissionId: string,
): RerunPlan & { rescored: string[] } {
  const { workflowId, submission, result } = original;
  if (result.status === 'rejected' || !result.packHash)
    throw new UsageError(`${workflowId} was rejected before any scenario ran: there is nothing to rescore`);
  const names = new Set(result.perScenario.map((s) => s.name));
  const unknown = scenarios.filter((name) => !names.has(name));
  if (unknown.length)
    throw new UsageError(
      `${workflowId} has no scenario ${unknown.map((n) => `"${n}"`).join(', ')}; it ran ${[...names].join(', ')}`,
    );
  const chosen = new Set(scenarios.length ? scenarios : names);
  const reuse: ReusedScenario[] = [];
  const noHash: string[] = [];
  for (const scenario of result.perScenario) {
    if (unresolvedStatuses.includes(scenario.status)) continue;
    const { reusedFrom, ...rest } = scenario;
    const key = {
      packHash: result.packHash,
      scenarioHash: scenario.scenarioHash ?? '',
      spec: result.scenarioSpec ?? null,
      seed: submission.seed,
      agent: submission.agent,
    };
    if (chosen.has(scenario.name) && scenario.artifacts.agentOutputs)
      reuse.push({ from: reusedFrom ?? workflowId, mode: 'verify', key, result: rest });
    else if (scenario.scenarioHash) reuse.push({ from: reusedFrom ?? workflowId, key, result: rest });
    else noHash.push(scenario.name);
  }
  const reused = reuse.map((r) => r.result.name);
  return {
    input: { ...unpaired(submission), submissionId, rerunOf: workflowId, reuse },
    run: result.perScenario.map((s) => s.name).filter((name) => !reused.includes(name)),
    reused,
    rescored: reuse.filter((r) => r.mode === 'verify').map((r) => r.result.name),
    noHash,
  };
}

/** A rerun runs on its own: the seat's pairing (its gate) belonged to the original run's challenge. */
function unpaired<T extends { pairing?: unknown }>(submission: T): Omit<T, 'pairing'> {
  const { pairing: _pairing, ...rest } = submission;
  return rest;
}
