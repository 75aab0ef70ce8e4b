// `trl up`: bootstrap the embedded stack and run the all-in-one worker until interrupted.
import { runAllInOneWorker } from '../../workers/all-in-one.ts';
import { temporalEndpoint } from '../../infra/temporal-server.ts';
import { evaluationTaskQueue } from '../../contracts/temporal-names.ts';
import { seatScheduleFor } from '../../workers/seat-schedule.ts';

export async function upCommand(): Promise<number> {
  await runAllInOneWorker({
    seatSchedule: seatScheduleFor(undefined),
    onReady: ({ upstream, metrics, seat, queues }) => {
      const endpoint = temporalEndpoint();
      process.stderr.write(
        `trl: stack is up. Temporal ${endpoint.address}, Web UI ${endpoint.uiUrl}/namespaces/${endpoint.namespace}/workflows\n` +
          `trl: worker polling ${evaluationTaskQueue} (both roles: ${queues.join(', ')}); models from ${upstream}\n` +
          (metrics ? `trl: metrics at http://${metrics}/metrics (the validator's and Temporal's runtime)\n` : '') +
          (seat
            ? `trl: seat of subnet ${seat.netuid}: cycle every ${seat.intervalSec} s (Schedule ${seat.scheduleId}) on the ${seat.chain}\n`
            : '') +
          `trl: Ctrl-C stops the worker (the Temporal server keeps running)\n`,
      );
    },
  });
  return 0;
}
