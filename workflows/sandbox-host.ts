// The workflow's side of the roles (docs/explanation/roles-and-queues.md): a scenario is claimed on the
// shared sandbox queue by a host with room, and its prepare → run → verify go to that host's own
// queue. A task there that no worker starts within its schedule-to-start timeout means the host
// is gone: the scenario is marked lost and starts over from a new claim.
import { ActivityFailure, TimeoutFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import { hostClaimTiming } from '../contracts/host-claim-timing.ts';
import { sandboxHostLimits, sandboxTaskQueue } from '../contracts/temporal-names.ts';
import { summarized } from './run-metadata.ts';

/** Histories from before the roles ran every scenario activity on the evaluation queue; they replay that way. */
export const sandboxHostQueuesPatch = 'sandbox-host-queues';

/** The claim, on the shared queue: a full host answers `sandbox_host_full` and the claim goes back for any host, sent
 * again after the same short interval every time (contracts/host-claim-timing.ts says why). */
export function sandboxClaims(evaluationQueue: string) {
  return summarized(
    proxyActivities<Activities>({
      taskQueue: sandboxTaskQueue(evaluationQueue),
      startToCloseTimeout: '1 minute',
      retry: {
        initialInterval: hostClaimTiming.retryMs,
        backoffCoefficient: 1,
        maximumInterval: hostClaimTiming.retryMs,
      },
    }),
  );
}

/** Options every proxy on a host queue adds to its own. */
export function onHostQueue(taskQueue: string) {
  return { taskQueue, scheduleToStartTimeout: `${sandboxHostLimits.scheduleToStartSec} seconds` } as const;
}

/** Whether an activity failed because no worker took it from its queue in time. */
export function isHostLost(error: unknown): boolean {
  return (
    error instanceof ActivityFailure &&
    error.cause instanceof TimeoutFailure &&
    error.cause.timeoutType === 'SCHEDULE_TO_START'
  );
}

/** One claim of a scenario: set when any of its activities found the host gone. */
export interface HostTenure {
  hostId: string;
  /** The host's own queue, once claimed. */
  taskQueue?: string;
  lost: boolean;
  /** Runs of the scenario on hosts lost before this one: this host's first is try triesBefore + 1. */
  triesBefore: number;
  /** Runs started on this host. */
  tries: number;
}

/** The same proxies; a failure that means the host is gone marks the tenure lost, then is thrown on as before. */
export function watchingHost<T extends object>(proxy: T, tenure: HostTenure): T {
  return new Proxy(proxy, {
    get(target, name, receiver) {
      const activity = Reflect.get(target, name, receiver) as unknown;
      if (typeof activity !== 'function') return activity;
      return async (...args: unknown[]) => {
        try {
          return await (activity as (...a: unknown[]) => Promise<unknown>)(...args);
        } catch (error) {
          if (isHostLost(error)) tenure.lost = true;
          throw error;
        }
      };
    },
  });
}
