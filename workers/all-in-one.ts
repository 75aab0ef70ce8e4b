// The all-in-one worker: bootstraps the embedded stack, then polls the evaluation task queue until
// SIGINT/SIGTERM. Started by `trl up`; also runnable directly (and killed mid-run by tests).
import { writeFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createDockerClient } from '../sandbox/docker-client.ts';
import { bootstrap } from '../infra/bootstrap.ts';
import { evaluationTaskQueue } from '../common/constants.ts';
import { workerPidFile } from '../common/paths.ts';
import { startHostedWorker } from './hosted-worker.ts';

export async function runAllInOneWorker(options: { taskQueue?: string; pidFile?: string; onReady?: (upstream: string) => void } = {}): Promise<void> {
  const docker = createDockerClient();
  const stack = await bootstrap(docker);
  const hosted = await startHostedWorker({ docker, stack, taskQueue: options.taskQueue ?? evaluationTaskQueue });
  const pidFile = options.pidFile ?? workerPidFile;
  mkdirSync(path.dirname(pidFile), { recursive: true });
  writeFileSync(pidFile, String(process.pid));
  try {
    options.onReady?.(hosted.upstream.description);
    await hosted.run();
  } finally {
    rmSync(pidFile, { force: true });
  }
}

const isEntryPoint = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isEntryPoint) {
  const taskQueue = process.env.TRL_TASK_QUEUE;
  runAllInOneWorker({
    taskQueue,
    pidFile: process.env.TRL_WORKER_PID_FILE,
    onReady: () => process.stderr.write(`trl: worker polling task queue ${taskQueue ?? evaluationTaskQueue}\n`),
  }).catch((error) => {
    process.stderr.write(`trl: worker failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
