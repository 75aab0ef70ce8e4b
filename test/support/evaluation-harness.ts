// Integration-test harness: a real Temporal server and Docker engine (bootstrapped by `trl test`),
// a real worker on a task queue of its own, the workflow bundle shared by the run
// (test/support/shared-workflow-bundle.ts).
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type Docker from 'dockerode';
import { createDockerClient } from '../../sandbox/docker-client.ts';
import { bootstrap } from '../../infra/bootstrap.ts';
import { projectWorkflowBundle } from './shared-workflow-bundle.ts';
import { startHostedWorker, type HostedWorker } from '../../workers/hosted-worker.ts';
import { startEvaluation } from '../../cli/client/start-evaluation.ts';
import type { SubmissionInput } from '../../contracts/submission.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import type { ChainConfig } from '../../chain/chain-config.ts';

export interface Harness {
  docker: Docker;
  client: Client;
  taskQueue: string;
  address: string;
  namespace: string;
  baseImage: string;
  bundle: WorkflowBundleWithSourceMap;
  evaluate(input: Omit<SubmissionInput, 'submissionId'> & { submissionId?: string }): Promise<EvaluationResult>;
  close(): Promise<void>;
}

export function uniqueId(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

export async function startHarness(
  options: {
    withWorker?: boolean;
    chain?: ChainConfig;
    simFleetMode?: 'fast' | 'realistic';
    /** false: every verification starts a container (a test of the verifiers themselves; verifiers/verifier-cache.ts). */
    verifierCache?: boolean;
  } = {},
): Promise<Harness> {
  process.env.TRL_QUIET ??= '1';
  // The suite's figures (turns, costs) are fast mode's unless a test asks for the realistic fleet.
  process.env.TRL_SIM_FLEET_MODE = options.simFleetMode ?? 'fast';
  const docker = createDockerClient();
  const stack = await bootstrap(docker);
  const { temporal, baseImage } = stack;
  const connection = await Connection.connect({ address: temporal.address });
  const client = new Client({ connection, namespace: temporal.namespace });
  const taskQueue = uniqueId('trl-test');
  const bundle = await projectWorkflowBundle();
  let hosted: HostedWorker | undefined;
  let running: Promise<void> | undefined;
  if (options.withWorker !== false) {
    hosted = await startHostedWorker({
      docker,
      stack,
      taskQueue,
      workflowBundle: bundle,
      chain: options.chain,
      verifierCache: options.verifierCache,
    });
    running = hosted.run();
  }
  return {
    docker,
    client,
    taskQueue,
    address: temporal.address,
    namespace: temporal.namespace,
    baseImage,
    bundle,
    async evaluate(input) {
      const handle = await startEvaluation(client, { submissionId: uniqueId('test'), ...input }, taskQueue);
      return handle.result();
    },
    async close() {
      hosted?.shutdown();
      await running;
      await connection.close();
    },
  };
}
