// A task that does not load or whose image does not build is that task's failure (`task_invalid`),
// not the run's: prepareScenario raises it as a non-retryable scenario_invalid failure carrying
// what is known of the task (category, difficulty, test count), so the result keeps them.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { parse as parseToml } from 'smol-toml';
import { ScenarioError } from '../catalog/scenario-error.ts';
import { testsInFolder } from '../catalog/count-tests.ts';
import { ImageBuildError } from '../sandbox/image-build.ts';
import { BuildRefusedError } from '../sandbox/scenario-image.ts';
import { failureTypes } from '../contracts/failure-types.ts';
import type { TaskInvalidDetails } from '../contracts/task-invalid.ts';

/** The task's own problem (a folder that does not load, a Dockerfile step that fails), as opposed to the engine's. */
export function isTaskProblem(error: unknown): boolean {
  return (
    error instanceof ScenarioError ||
    error instanceof BuildRefusedError ||
    (error instanceof ImageBuildError && error.stepFailed)
  );
}

/** What can be read of a task that does not load: its task.toml's metadata and its tests' static count. */
export async function taskMetadata(dir: string): Promise<TaskInvalidDetails> {
  const details: TaskInvalidDetails = {};
  try {
    const raw = parseToml(await readFile(path.join(dir, 'task.toml'), 'utf8')) as {
      metadata?: Record<string, unknown>;
    };
    if (typeof raw.metadata?.category === 'string') details.category = raw.metadata.category;
    if (typeof raw.metadata?.difficulty === 'string') details.difficulty = raw.metadata.difficulty;
  } catch {
    // No readable task.toml: the metadata stays unknown.
  }
  const tests = await testsInFolder(path.join(dir, 'tests')).catch(() => 0);
  if (tests > 0) details.testsDeclared = tests;
  return details;
}

/** The failure prepareScenario raises for a task problem; other errors pass through unchanged. */
export async function asTaskInvalid(error: unknown, scenario: { dir: string }): Promise<unknown> {
  if (!isTaskProblem(error)) return error;
  const message =
    error instanceof ImageBuildError
      ? `the task's image does not build: ${error.logTail.slice(-1500)}`
      : (error as Error).message;
  return ApplicationFailure.create({
    type: failureTypes.scenarioInvalid,
    message,
    nonRetryable: true,
    details: [await taskMetadata(scenario.dir)],
  });
}
