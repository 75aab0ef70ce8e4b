// A ready-to-run evaluation worker with everything it owns: its Temporal connection and its model
// upstream (the sim fleet process by default). Used by `trl up`, `trl eval` and the tests.
import { NativeConnection, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { Client, Connection } from '@temporalio/client';
import type { ChainClient } from '../chain/chain-client.ts';
import { readChainConfig, type ChainConfig } from '../chain/chain-config.ts';
import { openChain } from '../chain/open-chain.ts';
import type Docker from 'dockerode';
import type { BootstrapResult } from '../infra/bootstrap.ts';
import { createEvaluationWorker, type EvaluationWorkers, type WorkerRole } from './create-worker.ts';
import { metricsConfigOf, readWorkerConfig, sandboxHostIdOf } from './worker-config.ts';
import { startMetricsServer, type MetricsServer } from './metrics-server.ts';
import { startModelUpstream, type ModelUpstream } from './model-upstream.ts';
import { installQuietRuntime } from './quiet-runtime.ts';
import { temporalConnectionOptions } from '../infra/temporal-connection-options.ts';

export interface HostedWorker {
  /** One worker per queue this process polls (its roles'). */
  workers: EvaluationWorkers;
  upstream: ModelUpstream;
  /** The Prometheus endpoint when TRL_METRICS_PORT is set. */
  metrics?: MetricsServer;
  /** Runs until shutdown() (or SIGINT/SIGTERM), then releases the connection and the upstream. */
  run(): Promise<void>;
  shutdown(): void;
}

export interface HostedWorkerOptions {
  docker: Docker;
  stack: BootstrapResult;
  taskQueue: string;
  workflowBundle?: WorkflowBundleWithSourceMap;
  /** The chain the seat's cycle reads and writes; from the environment unless given. */
  chain?: ChainConfig;
  /** Default: both roles in this process. */
  roles?: readonly WorkerRole[];
  /** The sandbox host id; default TRL_WORKER_HOST_ID, else hostname-pid (tests run two hosts in one process). */
  hostId?: string;
  /** Reuse the test run's verifier results (TRL_VERIFIER_CACHE_DIR); false for a test of the verifier itself. */
  verifierCache?: boolean;
}

export async function startHostedWorker(options: HostedWorkerOptions): Promise<HostedWorker> {
  const config = readWorkerConfig();
  const metricsConfig = metricsConfigOf(config);
  installQuietRuntime(metricsConfig);
  const chainConfig = options.chain ?? readChainConfig();
  const metrics = metricsConfig ? await startMetricsServer(metricsConfig) : undefined;
  const upstream = await startModelUpstream(config).catch(async (error: unknown) => {
    await metrics?.close();
    throw error;
  });
  const connection = await NativeConnection.connect(temporalConnectionOptions(options.stack.temporal.address));
  // The seat's activities start and update workflows, so the worker also holds a client.
  const clientConnection = await Connection.connect(temporalConnectionOptions(options.stack.temporal.address));
  const client = new Client({ connection: clientConnection, namespace: options.stack.temporal.namespace });
  // Opened on first use and kept: a Subtensor connection is worth reusing across cycles.
  let chain: Promise<ChainClient> | undefined;
  const openSharedChain = (): Promise<ChainClient> => {
    if (!chain) {
      const opening = openChain(chainConfig);
      // A failed open is tried again next time instead of being remembered.
      opening.catch(() => {
        if (chain === opening) chain = undefined;
      });
      chain = opening;
    }
    return chain;
  };
  let workers: EvaluationWorkers;
  try {
    workers = await createEvaluationWorker({
      connection,
      namespace: options.stack.temporal.namespace,
      taskQueue: options.taskQueue,
      roles: options.roles,
      hostId: options.hostId ?? sandboxHostIdOf(config),
      docker: options.docker,
      baseImageTag: options.stack.baseImage,
      policyImage: options.stack.policyImage,
      sidecarImage: options.stack.sidecarImage,
      upstream: upstream.client,
      judgeSkipped: upstream.judgeSkipped,
      config,
      workflowBundle: options.workflowBundle,
      verifierCache: options.verifierCache,
      seat: {
        chain: openSharedChain,
        temporal: { client, taskQueue: options.taskQueue },
        fallbackUid: chainConfig.TRL_FALLBACK_UID,
      },
    });
  } catch (error) {
    await clientConnection.close();
    await connection.close();
    await upstream.close();
    await metrics?.close();
    throw error;
  }
  return {
    workers,
    upstream,
    metrics,
    shutdown: () => workers.shutdown(),
    async run() {
      try {
        await workers.run();
      } finally {
        await chain?.then(
          (c) => c.close(),
          () => undefined,
        );
        await clientConnection.close();
        await connection.close();
        await upstream.close();
        await metrics?.close();
      }
    },
  };
}
