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
}

export function summarizeEvaluation(input: SummaryInput): EvaluationResult {
  const perScenario = [...input.perScenario].sort((a, b) => a.name.localeCompare(b.name));
  let status: EvaluationStatus = 'completed';
  if (input.rejection && input.rejection.length > 0) status = 'rejected';
  // Unresolved infrastructure errors make the whole evaluation unusable for moving the seat.
  else if (perScenario.some((s) => s.status === 'infra_error')) status = 'incomplete';
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
    rejection: input.rejection,
    perScenario,
  };
}
