// A scenario whose task does not load or build: `task_invalid`, with what is known of the task.
// Workflow code imports this file: no Node built-ins.
import { ActivityFailure, ApplicationFailure } from '@temporalio/common';
import type { ScenarioResult } from './results.ts';
import { failureTypes } from './failure-types.ts';

/** What prepareScenario could read of a task it could not prepare (its failure's details). */
export interface TaskInvalidDetails {
  category?: string;
  difficulty?: string;
  testsDeclared?: number;
}

/**
 * The result of a scenario whose prepare failed: `task_invalid` with the task's metadata when the
 * failure was the task's (scenario_invalid), else `infra_error`, the reason in `error` either way.
 */
export function preparationFailed(base: ScenarioResult, error: unknown): ScenarioResult {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  const failure =
    cause instanceof ApplicationFailure
      ? { type: cause.type ?? undefined, message: cause.message, details: cause.details ?? [] }
      : { type: undefined, message: error instanceof Error ? error.message : String(error), details: [] };
  if (failure.type !== failureTypes.scenarioInvalid) return { ...base, error: `prepare: ${failure.message}` };
  const details = (failure.details?.[0] ?? {}) as TaskInvalidDetails;
  return {
    ...base,
    status: 'task_invalid',
    ...(typeof details.category === 'string' ? { category: details.category } : {}),
    ...(typeof details.difficulty === 'string' ? { difficulty: details.difficulty } : {}),
    ...(typeof details.testsDeclared === 'number' ? { testsDeclared: details.testsDeclared } : {}),
    error: `task: ${failure.message}`,
  };
}
