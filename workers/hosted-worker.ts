// A ready-to-run evaluation worker with everything it owns: its Temporal connection and its model
// upstream (the sim fleet process by default). Used by `trl up`, `trl eval` and the tests.
import { NativeConnection, type Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type Docker from 'dockerode';
import type { BootstrapResult } from '../infra/bootstrap.ts';
import { createEvaluationWorker } from './create-worker.ts';
import { readWorkerConfig } from './worker-config.ts';
import { startModelUpstream, type ModelUpstream } from './model-upstream.ts';
import { installQuietRuntime } from './quiet-runtime.ts';

export interface HostedWorker {
  worker: Worker;
  upstream: ModelUpstream;
  /** Runs until shutdown() (or SIGINT/SIGTERM), then releases the connection and the upstream. */
  run(): Promise<void>;
  shutdown(): void;
}

export async function startHostedWorker(options: { docker: Docker; stack: BootstrapResult; taskQueue: string; workflowBundle?: WorkflowBundleWithSourceMap }): Promise<HostedWorker> {
  installQuietRuntime();
  const config = readWorkerConfig();
  const upstream = await startModelUpstream(config);
  const connection = await NativeConnection.connect({ address: options.stack.temporal.address });
  let worker: Worker;
  try {
    worker = await createEvaluationWorker({
      connection,
      namespace: options.stack.temporal.namespace,
      taskQueue: options.taskQueue,
      docker: options.docker,
      baseImageTag: options.stack.baseImage,
      policyImage: options.stack.policyImage,
      upstream: upstream.client,
      config,
      workflowBundle: options.workflowBundle,
    });
  } catch (error) {
    await connection.close();
    await upstream.close();
    throw error;
  }
  return {
    worker,
    upstream,
    shutdown: () => worker.shutdown(),
    async run() {
      try {
        await worker.run();
      } finally {
        await connection.close();
        await upstream.close();
      }
    },
  };
}
