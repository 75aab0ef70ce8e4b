// `trl worker --role orchestration|sandbox`: one role of the validator against the configured
// Temporal (TRL_TEMPORAL_ADDRESS), until interrupted. `trl up` runs both roles in one process.
import { runAllInOneWorker } from '../../workers/all-in-one.ts';
import { temporalEndpoint } from '../../infra/temporal-server.ts';
import { workerRoles, type WorkerRole } from '../../workers/create-worker.ts';
import { UsageError } from '../usage-error.ts';
import { seatScheduleFor } from '../../workers/seat-schedule.ts';

export function parseWorkerRole(value: string | undefined): WorkerRole {
  const role = workerRoles.find((known) => known === value);
  if (!role)
    throw new UsageError(
      `trl worker needs --role ${workerRoles.join(' or ')}${value === undefined ? '' : `; got "${value}"`}`,
    );
  return role;
}

export async function workerCommand(options: { role: WorkerRole }): Promise<number> {
  await runAllInOneWorker({
    roles: [options.role],
    pidFile: false,
    seatSchedule: seatScheduleFor([options.role]),
    onReady: ({ upstream, queues, seat }) => {
      process.stderr.write(
        `trl: ${options.role} worker polling ${queues.join(', ')} on Temporal ${temporalEndpoint().address}` +
          (options.role === 'sandbox' ? `; models from ${upstream}` : '') +
          (seat
            ? `\ntrl: seat of subnet ${seat.netuid}: cycle every ${seat.intervalSec} s (Schedule ${seat.scheduleId}, kept running when this worker stops) on the ${seat.chain}`
            : '') +
          `\ntrl: Ctrl-C stops it (its running activities are cancelled after 10 s and tried again elsewhere)\n`,
      );
    },
  });
  return 0;
}
