// Scenarios that wait for a sandbox host, and why: the pending `claimSandboxHost` activities of the
// running evaluations, with the reason the host gave (activities/sandbox-host-activities.ts beats it as
// the activity's heartbeat, then fails the attempt with it). `trl seat` prints them; the Temporal UI
// shows the same on the evaluation's pending activities.
import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { ClaimWaitDetails } from '../contracts/host-wait.ts';

export interface HostWait {
  workflowId: string;
  scenario: string;
  attempt: number;
  reason: string;
}

/** At most this many running evaluations are looked into. */
const evaluationsLooked = 50;

export async function scenariosWaitingForHost(client: Client): Promise<HostWait[]> {
  const waits: HostWait[] = [];
  let looked = 0;
  for await (const execution of client.workflow.list({
    query: `WorkflowType = 'evaluateSubmission' AND ExecutionStatus = 'Running'`,
  })) {
    if (++looked > evaluationsLooked) break;
    const described = await client.workflow
      .getHandle(execution.workflowId, execution.runId)
      .describe()
      .catch(() => undefined);
    for (const pending of described?.raw.pendingActivities ?? []) {
      if (pending.activityType?.name !== 'claimSandboxHost') continue;
      const beat = pending.heartbeatDetails?.payloads?.[0];
      const details = beat ? defaultPayloadConverter.fromPayload<ClaimWaitDetails>(beat) : undefined;
      const reason = details?.waiting ?? pending.lastFailure?.message ?? 'no sandbox host has taken it yet';
      waits.push({
        workflowId: execution.workflowId,
        scenario: details?.scenario ?? '?',
        attempt: pending.attempt ?? 1,
        reason,
      });
    }
  }
  return waits;
}
