// Totals of an evaluation from its per-scenario results. Pure: the workflow's outcome in one function.
import type { EvaluationResult, EvaluationStatus, Rejection, ScenarioResult } from '../contracts/results.ts';

export interface SummaryInput {
  submissionId: string;
  workflowId: string;
  agent: string;
  packHash?: string;
  /** The registry spec of the scenario set (null for a named subset or another directory). */
  scenarioSpec?: number | null;
  rejection?: Rejection[];
  perScenario: ScenarioResult[];
  /** Why the workflow stopped starting paid scenarios (a spend ceiling). */
  stoppedReason?: string;
}

/** Statuses that leave a scenario unresolved: the evaluation cannot be used to move the seat. */
const unresolvedStatuses: readonly ScenarioResult['status'][] = ['infra_error', 'ceiling_reached', 'task_invalid'];

function costByModel(perScenario: readonly ScenarioResult[]): Record<string, number> {
  const byModel: Record<string, number> = {};
  for (const scenario of perScenario) {
    for (const [model, usd] of Object.entries(scenario.costByModelUsd ?? {}))
      byModel[model] = (byModel[model] ?? 0) + usd;
  }
  for (const model of Object.keys(byModel)) byModel[model] = Math.round(byModel[model]! * 1e6) / 1e6;
  return byModel;
}

export function summarizeEvaluation(input: SummaryInput): EvaluationResult {
  const perScenario = [...input.perScenario].sort((a, b) => a.name.localeCompare(b.name));
  let status: EvaluationStatus = 'completed';
  if (input.rejection && input.rejection.length > 0) status = 'rejected';
  // Unresolved infrastructure errors (or scenarios a spend ceiling kept from running) make the
  // whole evaluation unusable for moving the seat.
  else if (input.stoppedReason || perScenario.some((s) => unresolvedStatuses.includes(s.status))) status = 'incomplete';
  const sum = (pick: (s: ScenarioResult) => number) => perScenario.reduce((total, s) => total + pick(s), 0);
  return {
    submissionId: input.submissionId,
    workflowId: input.workflowId,
    status,
    packHash: input.packHash,
    scenarioSpec: input.scenarioSpec ?? null,
    agent: input.agent,
    testsPassed: sum((s) => s.testsPassed),
    testsTotal: sum((s) => s.testsTotal),
    costUsd: Math.round(sum((s) => s.costUsd) * 1e6) / 1e6,
    costByModelUsd: costByModel(perScenario),
    ...(input.stoppedReason ? { stoppedReason: input.stoppedReason } : {}),
    rejection: input.rejection,
    perScenario,
  };
}
