// The sandbox host's side of the roles (docs/explanation/roles-and-queues.md): claimSandboxHost, taken
// from the shared sandbox queue, answers with this host's own queue when it has room; prepare,
// run and verify of that scenario then come on that queue and hold the claim while they run.
import { setTimeout as sleep } from 'node:timers/promises';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { failureTypes } from '../contracts/failure-types.ts';
import { workflowIdOf, type SandboxHost } from './activity-context.ts';
import { hostClaimTiming } from '../contracts/host-claim-timing.ts';
import type { ClaimWaitDetails } from '../contracts/host-wait.ts';
import { createClaimPriority, pairedPriority } from './claim-priority.ts';

export interface SandboxHostClaim {
  hostId: string;
  taskQueue: string;
}

function claimKey(scenario: string): string {
  return `${workflowIdOf(Context.current().info)}/${scenario}`;
}

export function createSandboxHostActivities(host: SandboxHost | undefined) {
  const priorityOf = createClaimPriority();

  /** `dir`: the scenario's folder, for the order of waiting claims (histories from before it send none); `rank`: its
   * place in a paired evaluation's release order. */
  async function claimSandboxHost(request: {
    name: string;
    dir?: string;
    rank?: number;
    /** The claims the evaluation sends at once (its scenarios); histories from before it send none. */
    together?: number;
  }): Promise<SandboxHostClaim> {
    if (!host) throw ApplicationFailure.nonRetryable('this worker has no sandbox role', failureTypes.sandboxHostFull);
    const key = claimKey(request.name);
    const priority = request.rank !== undefined ? pairedPriority(request.rank) : await priorityOf(request.dir);
    const context = Context.current();
    const deadline = Date.now() + hostClaimTiming.roomWaitMs;
    // Waiting since the workflow first sent the claim, on whichever host: a claim passed back from another host is
    // not made to wait for the claims arriving with it again (two hosts bounced one claim between them for 14 s).
    const sentMs = context.info.scheduledTimestampMs;
    while (!host.claims.tryClaim(key, priority, request.together ?? 0, sentMs)) {
      // Why it waits, as the pending activity's heartbeat and then its failure: the Temporal UI and `trl seat` show it.
      const refusal = host.claims.lastRefusal();
      const reason = `sandbox host ${host.id} ${refusal?.full === false ? 'orders its waiting scenarios' : 'is full'}: ${refusal?.reason ?? `${host.claims.active()} scenarios running`}`;
      context.heartbeat({ scenario: request.name, waiting: reason } satisfies ClaimWaitDetails);
      // A claim passed over for a longer or earlier one gives its slot back at once (the claim queue has few slots, and
      // every waiting claim must reach the host to be ordered); the one next in line keeps asking.
      if (refusal?.next === false || Date.now() >= deadline || context.cancellationSignal.aborted) {
        throw ApplicationFailure.retryable(reason, failureTypes.sandboxHostFull);
      }
      await sleep(250);
    }
    return { hostId: host.id, taskQueue: host.taskQueue };
  }

  /** The workflow is done with the scenario on this host: its room is free at once, not after the idle timeout (a
   * scenario that ends before its verification — the spend ceiling reached, a run that failed, a tape without it —
   * held the host's room for two minutes). */
  async function releaseSandboxHost(request: { name: string }): Promise<{ released: boolean }> {
    return { released: host ? host.claims.release(claimKey(request.name)) : false };
  }

  /** One of a claimed scenario's activities: it holds the claim while it runs; the last one ends it. */
  function held<I, O>(
    nameOf: (input: I) => string,
    work: (input: I) => Promise<O>,
    last = false,
    endsOnFailure?: (error: unknown) => boolean,
  ): (input: I) => Promise<O> {
    return (input: I) =>
      host
        ? host.claims.within(claimKey(nameOf(input)), () => work(input), {
            last,
            ...(endsOnFailure ? { endsOnFailure } : {}),
          })
        : work(input);
  }

  return { claimSandboxHost, releaseSandboxHost, held };
}
