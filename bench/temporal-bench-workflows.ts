// Workflows for bench/temporal.ts only: no-op activities in lanes, one activity, nothing at all.
// Bundled on their own (never part of workflows/index.ts), so they reach no production worker.
import { proxyActivities } from '@temporalio/workflow';

export interface BenchActivities {
  noop(): Promise<void>;
}

// No retries: a failed no-op is a broken bench, not a latency sample.
const { noop } = proxyActivities<BenchActivities>({ startToCloseTimeout: '10 seconds', retry: { maximumAttempts: 1 } });

/** `count` no-op activities over `lanes` concurrent lanes, each lane one after another. */
export async function noopActivities(count: number, lanes: number): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) {
      next += 1;
      await noop();
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
}

/** One no-op activity: the workflow's start to its first activity. */
export async function oneActivity(): Promise<void> {
  await noop();
}

/** Nothing: the cost of a workflow itself, start to result. */
export async function trivial(): Promise<string> {
  return 'done';
}
