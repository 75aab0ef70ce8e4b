// Every activity heartbeats on a steady clock for as long as it runs, whatever step it is in.
// A heartbeat says "this worker is alive"; it must not depend on the activity's phase or on what a
// pack does. Before this, runScenario beat only while its agent ran a command, so a policy slow to
// become healthy (the sidecar has 60 s) or slow to answer (the loop agent waits in the worker)
// went 20 s without a beat: the server timed the attempt out and retried it, three times, then
// scored the scenario as the infrastructure's failure — a pack could make its evaluation
// incomplete. The clock runs on the event loop, so a dead or blocked worker still misses its beats.
import type { Context as ActivityContext } from '@temporalio/activity';
import type { ActivityInterceptors } from '@temporalio/worker';

/** The beat's period: well under the shortest heartbeat timeout any workflow sets (20 s). */
export const steadyHeartbeatMs = 5_000;

/** Runs `work`, calling `beat` every `periodMs` until it settles (resolved or thrown). */
export async function withSteadyHeartbeat<T>(
  beat: () => void,
  work: () => Promise<T>,
  periodMs = steadyHeartbeatMs,
): Promise<T> {
  const clock = setInterval(() => {
    try {
      beat();
    } catch {
      // The SDK throws only once the activity has settled; the finally below clears the clock.
    }
  }, periodMs);
  try {
    return await work();
  } finally {
    clearInterval(clock);
  }
}

/** The worker option `interceptors.activity` entry that gives every activity the steady beat. */
export function steadyHeartbeatInterceptor(context: ActivityContext): ActivityInterceptors {
  return {
    inbound: {
      execute: (input, next) =>
        withSteadyHeartbeat(
          () => context.heartbeat(),
          () => next(input),
        ),
    },
  };
}
