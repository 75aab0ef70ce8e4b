// The all-in-one worker: bootstraps the embedded stack, then polls the evaluation task queue (and,
// in its sandbox role, the shared sandbox queue and its own host queue) until SIGINT/SIGTERM.
// Started by `trl up` with both roles and by `trl worker --role …` with one; also runnable
// directly (and killed mid-run by tests).
import { writeFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createDockerClient } from '../sandbox/docker-client.ts';
import { bootstrap } from '../infra/bootstrap.ts';
import { evaluationTaskQueue } from '../contracts/temporal-names.ts';
import { ConfigError } from '../common/config-error.ts';
import { probeFrontend, temporalEndpoint } from '../infra/temporal-server.ts';
import type { WorkerRole } from './create-worker.ts';
import { workerPidFile } from '../common/data-layout.ts';
import { startHostedWorker } from './hosted-worker.ts';
import { Client, Connection } from '@temporalio/client';
import { readChainConfig, seatConfigFrom } from '../chain/chain-config.ts';
import { ensureSeatSchedule, type SeatScheduleUse } from './seat-schedule.ts';
import { temporalConnectionOptions } from '../infra/temporal-connection-options.ts';
import { readSetting } from '../common/settings/setting.ts';
import { workerSettings } from '../common/settings/worker-settings.ts';

export interface AllInOneOptions {
  taskQueue?: string;
  /** `false`: no pid file (`trl worker`: `trl eval` looks for `trl up`'s). */
  pidFile?: string | false;
  /** One role against a Temporal already running (`trl worker --role`); default both, with the embedded server if none
   * answers. */
  roles?: readonly WorkerRole[];
  /** Create (or update) the Schedule that runs the seat's chain cycle (see seatScheduleFor). */
  seatSchedule?: SeatScheduleUse;
  onReady?: (ready: {
    upstream: string;
    metrics?: string;
    queues: string[];
    seat?: { scheduleId: string; intervalSec: number; netuid: number; chain: string };
  }) => void;
}

export async function runAllInOneWorker(options: AllInOneOptions = {}): Promise<void> {
  const docker = createDockerClient();
  // A single role joins a deployment: it never starts a Temporal server of its own.
  if (options.roles && !(await probeFrontend(temporalEndpoint().address))) {
    throw new ConfigError(
      `no Temporal server answers at ${temporalEndpoint().address}; set TRL_TEMPORAL_ADDRESS to the deployment's (or start one with trl up)`,
    );
  }
  const stack = await bootstrap(docker);
  const taskQueue = options.taskQueue ?? evaluationTaskQueue;
  const chainConfig = readChainConfig();
  const hosted = await startHostedWorker({ docker, stack, taskQueue, chain: chainConfig, roles: options.roles });
  let seat: { scheduleId: string; intervalSec: number; netuid: number; chain: string } | undefined;
  let pauseSchedule: (() => Promise<void>) | undefined;
  if (options.seatSchedule) {
    const connection = await Connection.connect(temporalConnectionOptions(stack.temporal.address));
    const client = new Client({ connection, namespace: stack.temporal.namespace });
    const { scheduleId } = await ensureSeatSchedule(client, {
      seat: seatConfigFrom(chainConfig),
      intervalSec: chainConfig.TRL_CYCLE_INTERVAL_SEC,
      taskQueue,
    });
    const chain =
      chainConfig.TRL_CHAIN === 'local'
        ? `local chain ${chainConfig.TRL_LOCAL_CHAIN_FILE}`
        : `Subtensor ${chainConfig.TRL_CHAIN_ENDPOINT}`;
    seat = { scheduleId, intervalSec: chainConfig.TRL_CYCLE_INTERVAL_SEC, netuid: chainConfig.TRL_NETUID, chain };
    // `trl up` is the deployment's only worker: no worker, no cycles, so it pauses the Schedule when it
    // stops and the next start resumes it. An orchestration worker of a deployment leaves it running:
    // others may still serve it, and a cycle that finds no worker waits on the queue (overlap: skip).
    const pauseOnStop = options.seatSchedule.pauseOnStop;
    pauseSchedule = async () => {
      if (pauseOnStop)
        await client.schedule
          .getHandle(scheduleId)
          .pause('trl up stopped')
          .catch(() => undefined);
      await connection.close();
    };
  }
  const pidFile = options.pidFile === false ? undefined : (options.pidFile ?? workerPidFile);
  if (pidFile) {
    mkdirSync(path.dirname(pidFile), { recursive: true });
    writeFileSync(pidFile, String(process.pid));
  }
  try {
    options.onReady?.({
      upstream: hosted.upstream.description,
      metrics: hosted.metrics?.address,
      queues: hosted.workers.queues,
      seat,
    });
    await hosted.run();
  } finally {
    await pauseSchedule?.();
    if (pidFile) rmSync(pidFile, { force: true });
  }
}

const isEntryPoint =
  process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isEntryPoint) {
  const taskQueue = readSetting(workerSettings, 'TRL_TASK_QUEUE');
  runAllInOneWorker({
    taskQueue,
    pidFile: readSetting(workerSettings, 'TRL_WORKER_PID_FILE'),
    onReady: ({ queues }) =>
      process.stderr.write(
        `trl: worker polling task queues ${queues.join(', ')} (evaluations on ${taskQueue ?? evaluationTaskQueue})\n`,
      ),
  }).catch((error) => {
    process.stderr.write(`trl: worker failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
