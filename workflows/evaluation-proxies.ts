// The activity proxies of an evaluation, one per kind of work, each with its timeouts and retries; and how a failed
// activity is read. Workflow code: only types from activities/.
import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import { evaluationNonRetryableTypes } from '../contracts/failure-types.ts';
import { probeLimits } from '../contracts/probe.ts';
import { sandboxActivityAttempts } from '../contracts/temporal-names.ts';
import { summarized } from './run-metadata.ts';
import { onHostQueue } from './sandbox-host.ts';

const nonRetryableErrorTypes = [...evaluationNonRetryableTypes];

/** Fetching the pack, resolving and hashing scenarios, aggregating. */
export const quick = summarized(
  proxyActivities<Activities>({
    startToCloseTimeout: '2 minutes',
    retry: { maximumAttempts: 5, initialInterval: '1 second', nonRetryableErrorTypes },
  }),
);

/** Pre-evaluation may wait on the LLM judge (which retries on its own, then fails closed). */
export const screening = summarized(
  proxyActivities<Activities>({
    startToCloseTimeout: '10 minutes',
    // The activity heartbeats: a worker killed mid-screening is noticed in seconds, not minutes.
    heartbeatTimeout: '30 seconds',
    retry: { maximumAttempts: 2, initialInterval: '5 seconds', nonRetryableErrorTypes },
  }),
);

/** Image builds; on the scenario's sandbox host when it has one (docs/explanation/roles-and-queues.md). */
export function buildActivities(hostQueue?: string) {
  return summarized(
    proxyActivities<Activities>({
      ...(hostQueue ? onHostQueue(hostQueue) : {}),
      startToCloseTimeout: '30 minutes',
      heartbeatTimeout: '2 minutes',
      retry: { maximumAttempts: 3, initialInterval: '5 seconds', nonRetryableErrorTypes },
    }),
  );
}

/** The probe: one conversation per scenario, each bounded by probeLimits.conversationSec; on the shared sandbox queue
 * when given (any sandbox host: the scenario images are there), else the evaluation queue. */
export function probeActivities(scenarioCount: number, taskQueue?: string) {
  return summarized(
    proxyActivities<Activities>({
      ...(taskQueue ? { taskQueue } : {}),
      startToCloseTimeout: `${scenarioCount * (probeLimits.conversationSec + 30) + 60} seconds`,
      heartbeatTimeout: '30 seconds',
      retry: { maximumAttempts: 2, initialInterval: '5 seconds', nonRetryableErrorTypes },
    }),
  );
}

/** Per-scenario proxies: the timeout follows the scenario's own task.toml. */
export function sandboxActivities(timeoutSec: number, hostQueue?: string) {
  return summarized(
    proxyActivities<Activities>({
      ...(hostQueue ? onHostQueue(hostQueue) : {}),
      startToCloseTimeout: `${Math.ceil(timeoutSec) + 300} seconds`,
      heartbeatTimeout: '20 seconds',
      retry: { maximumAttempts: sandboxActivityAttempts, initialInterval: '2 seconds', nonRetryableErrorTypes },
    }),
  );
}

export type SandboxActivities = ReturnType<typeof sandboxActivities>;

/** The end of a scenario's claim on its host's queue: quick, and best effort (the host's idle timeout is the fallback). */
export function releaseActivities(hostQueue: string) {
  return summarized(
    proxyActivities<Activities>({
      ...onHostQueue(hostQueue),
      startToCloseTimeout: '30 seconds',
      retry: { maximumAttempts: 2, initialInterval: '1 second', nonRetryableErrorTypes },
    }),
  );
}

/** A failed activity's failure type (when it has one) and message. */
export function failureText(error: unknown): { type?: string; message: string } {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure) return { type: cause.type ?? undefined, message: cause.message };
  return { message: error instanceof Error ? error.message : String(error) };
}
