// The all-in-one worker: bootstraps the embedded stack, then polls the evaluation task queue until
// SIGINT/SIGTERM. Started by `trl up`; also runnable directly (and killed mid-run by tests).
import { writeFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { NativeConnection } from '@temporalio/worker';
import { createDockerClient } from '../sandbox/docker-client.ts';
import { bootstrap } from '../infra/bootstrap.ts';
import { evaluationTaskQueue } from '../common/constants.ts';
import { workerPidFile } from '../common/paths.ts';
import { createEvaluationWorker } from './create-worker.ts';
import { installQuietRuntime } from './quiet-runtime.ts';

export async function runAllInOneWorker(options: { taskQueue?: string; pidFile?: string; onReady?: () => void } = {}): Promise<void> {
  installQuietRuntime();
  const docker = createDockerClient();
  const { temporal, baseImage } = await bootstrap(docker);
  const connection = await NativeConnection.connect({ address: temporal.address });
  const worker = await createEvaluationWorker({
    connection,
    namespace: temporal.namespace,
    taskQueue: options.taskQueue ?? evaluationTaskQueue,
    docker,
    baseImageTag: baseImage,
  });
  const pidFile = options.pidFile ?? workerPidFile;
  mkdirSync(path.dirname(pidFile), { recursive: true });
  writeFileSync(pidFile, String(process.pid));
  try {
    options.onReady?.();
    await worker.run();
  } finally {
    rmSync(pidFile, { force: true });
    await connection.close();
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
