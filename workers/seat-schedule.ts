// The Schedule that drives the seat's chain cycle: created when missing, updated when the interval
// or the seat's configuration changed, so `trl up` can be run again safely.
import { ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { seatCycleScheduleId, seatCycleSchedulePrefix } from '../contracts/temporal-names.ts';
import type { SeatConfig } from '../contracts/seat.ts';
import type { seatCycle } from '../workflows/seat-cycle.ts';
import type { WorkerRole } from './create-worker.ts';

/** Whether a worker keeps the seat's Schedule, and whether it pauses it when it stops. */
export interface SeatScheduleUse {
  pauseOnStop: boolean;
}

/**
 * Who keeps the Schedule: `trl up` (both roles, `roles` undefined) creates it and pauses it when it
 * stops; every orchestration worker of a split deployment creates or updates it and leaves it running
 * (the seat cycle is orchestration work, and a deployment without `trl up` would otherwise never
 * run one); a sandbox-only worker leaves it alone.
 */
export function seatScheduleFor(roles: readonly WorkerRole[] | undefined): SeatScheduleUse | undefined {
  if (roles === undefined) return { pauseOnStop: true };
  return roles.includes('orchestration') ? { pauseOnStop: false } : undefined;
}

/**
 * A worker serves one subnet (its chain config names it): cycles of another subnet's Schedule on
 * the same task queue would fail on every run, so those are paused with a note saying why.
 */
async function pauseOtherSubnets(
  client: Client,
  scheduleId: string,
  taskQueue: string,
  netuid: number,
): Promise<string[]> {
  const paused: string[] = [];
  for await (const summary of client.schedule.list()) {
    if (!summary.scheduleId.startsWith(seatCycleSchedulePrefix) || summary.scheduleId === scheduleId) continue;
    const handle = client.schedule.getHandle(summary.scheduleId);
    const description = await handle.describe();
    if (description.action.taskQueue !== taskQueue || description.state.paused) continue;
    await handle.pause(`this validator's worker now serves subnet ${netuid}`);
    paused.push(summary.scheduleId);
  }
  return paused;
}

export async function ensureSeatSchedule(
  client: Client,
  input: { seat: SeatConfig; intervalSec: number; taskQueue: string },
): Promise<{ scheduleId: string; created: boolean; pausedOthers: string[] }> {
  const scheduleId = seatCycleScheduleId(input.seat.netuid);
  const action = {
    type: 'startWorkflow' as const,
    workflowType: 'seatCycle',
    taskQueue: input.taskQueue,
    workflowId: `seat-cycle-run-${input.seat.netuid}`,
    args: [{ seat: input.seat }] as Parameters<typeof seatCycle>,
    // One turn is short; a stuck one is cut so the next can start.
    workflowExecutionTimeout: `${Math.max(input.intervalSec * 3, 600)} seconds`,
  };
  const spec = { intervals: [{ every: `${input.intervalSec} seconds` }] };
  const policies = { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute', pauseOnFailure: false };
  const handle = client.schedule.getHandle(scheduleId);
  try {
    await handle.describe();
  } catch (error) {
    if (!(error instanceof ScheduleNotFoundError)) throw error;
    try {
      await client.schedule.create({ scheduleId, spec, action, policies, memo: { netuid: input.seat.netuid } });
      return {
        scheduleId,
        created: true,
        pausedOthers: await pauseOtherSubnets(client, scheduleId, input.taskQueue, input.seat.netuid),
      };
    } catch (createError) {
      // Two orchestration workers starting together: the other created it; update it as below.
      if (!(createError instanceof ScheduleAlreadyRunning)) throw createError;
    }
  }
  await handle.update((previous) => ({
    ...previous,
    spec,
    action,
    policies,
    state: { ...previous.state, paused: false, note: 'resumed' },
  }));
  return {
    scheduleId,
    created: false,
    pausedOthers: await pauseOtherSubnets(client, scheduleId, input.taskQueue, input.seat.netuid),
  };
}
