// Classifies errors where they happen: each becomes an ApplicationFailure with a stable type (from
// contracts/failure-types.ts) and the right retry behaviour. Workflow code matches on these types,
// never on messages.
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { Context } from '@temporalio/activity';
import { PackError } from '../packs/pack-error.ts';
import { ScenarioError } from '../catalog/scenario-error.ts';
import { VerifierFailure } from '../verifiers/run-verifier.ts';
import { ImageBuildError } from '../sandbox/image-build.ts';
import { failureTypes, type PackFaultType } from '../contracts/failure-types.ts';
import { truncateUtf8 } from '../common/bounded-list.ts';
import { blameOf } from '../contracts/blame.ts';
import { recordInfraError } from '../common/metrics.ts';

/** A failure's message and stack in the activity result: what a pack can put there is cut to this. */
const maxFailureTextBytes = 8 * 1024;

/**
 * The pack broke its own run (its sandbox, its outputs, its payloads, its disk): throw this where
 * it is found. It leaves the activity non-retryable, and the workflow scores the scenario 0 for it
 * and completes the evaluation (contracts/blame.ts) — a pack never makes its evaluation incomplete.
 */
export class PackFaultError extends Error {
  constructor(
    readonly type: PackFaultType,
    message: string,
  ) {
    super(message);
    this.name = 'PackFaultError';
  }
}

export function classifyError(error: unknown): unknown {
  return bounded(classifyUnbounded(error));
}

/** Cuts message and stack in place (pack errors quote pack text; esbuild can list hundreds of errors). */
function bounded(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  if (Buffer.byteLength(error.message, 'utf8') > maxFailureTextBytes)
    error.message = truncateUtf8(error.message, maxFailureTextBytes);
  if (error.stack && Buffer.byteLength(error.stack, 'utf8') > maxFailureTextBytes)
    error.stack = truncateUtf8(error.stack, maxFailureTextBytes);
  return error;
}

function classifyUnbounded(error: unknown): unknown {
  if (error instanceof ApplicationFailure) return error;
  if (error instanceof PackError) {
    return ApplicationFailure.create({ type: error.code, message: error.message, nonRetryable: !error.retryable });
  }
  if (error instanceof PackFaultError) {
    return ApplicationFailure.create({ type: error.type, message: error.message.slice(0, 4000), nonRetryable: true });
  }
  if (error instanceof ScenarioError) {
    return ApplicationFailure.create({
      type: failureTypes.scenarioInvalid,
      message: error.message,
      nonRetryable: true,
    });
  }
  if (error instanceof VerifierFailure) {
    // Infrastructure: retried by the activity's retry policy; the log tail goes along for the UI.
    return ApplicationFailure.create({ type: error.kind, message: error.message, details: [error.log.slice(-4000)] });
  }
  if (error instanceof ImageBuildError) {
    return ApplicationFailure.create({ type: failureTypes.imageBuildFailed, message: error.message.slice(-6000) });
  }
  return error;
}

/** Wraps an activity implementation so every error leaves it classified. */
export function classified<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    try {
      return await fn(...args);
    } catch (error) {
      const failure = classifyError(error);
      countInfraError(failure);
      throw failure;
    }
  };
}

/** An activity failure the blame table puts on the infrastructure (or an unclassified error, which it treats so) goes
 * into the metrics. */
function countInfraError(failure: unknown): void {
  if (failure instanceof CancelledFailure) return;
  const type = failure instanceof ApplicationFailure ? (failure.type ?? 'unclassified') : 'unclassified';
  const blame = blameOf('failure_type', type)?.blame;
  if (blame !== undefined && blame !== 'infrastructure') return;
  if (blame === undefined && failure instanceof ApplicationFailure && failure.nonRetryable) return;
  let activity = 'unknown';
  try {
    activity = Context.current().info.activityType;
  } catch {
    // Called outside an activity (a unit test): the activity stays unknown.
  }
  recordInfraError(activity, type);
}
