// Builds the evaluation worker: workflows from workflows/, activities wired with real clients.
import path from 'node:path';
import { NativeConnection, Worker, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type Docker from 'dockerode';
import { createActivities } from '../activities/index.ts';
import { repoRoot } from '../common/data-layout.ts';
import { currentWorkerIdentity } from '../sandbox/worker-identity.ts';
import { ownedByDeadWorker, removeOrphanContainers } from '../sandbox/orphan-cleanup.ts';
import { removeOrphanNetworks } from '../sandbox/run-network.ts';
import { log } from '../common/log.ts';
import { loadAllowlist } from '../gateway/catalog/allowlist.ts';
import { openWorkerSpendLedger } from '../gateway/spend/worker-spend-ledger.ts';
import type { WorkerConfig } from './worker-config.ts';
import { sharedBlobStore } from '../common/store/open-blob-store.ts';
import { createTapeUpstream } from './tape-upstream.ts';
import type OpenAI from 'openai';
import type { SeatActivityDependencies } from '../activities/seat-activities.ts';

export const workflowsPath = path.join(repoRoot, 'workflows', 'index.ts');

/** The workflow bundle; `path` replaces the project's workflows (replaying against other code). */
export async function bundleWorkflows(path = workflowsPath): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({ workflowsPath: path, logger: quietBundlerLogger });
}

const quietBundlerLogger = {
  log: () => undefined, trace: () => undefined, debug: () => undefined, info: () => undefined,
  warn: (message: string) => log.warn('workflow_bundle', { message }),
  error: (message: string) => log.error('workflow_bundle', { message }),
};

export interface EvaluationWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  docker: Docker;
  baseImageTag: string;
  policyImage: string;
  /** The Python policy sidecar image (python / data packs). */
  sidecarImage?: string;
  upstream: OpenAI;
  config: WorkerConfig;
  workflowBundle?: WorkflowBundleWithSourceMap;
  maxConcurrentActivities?: number;
  seat?: SeatActivityDependencies;
}

export async function createEvaluationWorker(options: EvaluationWorkerOptions): Promise<Worker> {
  // The blob store's settings (TRL_STORE, TRL_S3_*) and its bucket checked now: a bad one stops the worker, not each fetchPack.
  await sharedBlobStore().checkAccess();
  const owner = currentWorkerIdentity();
  const removed = await removeOrphanContainers(options.docker, owner);
  if (removed.length > 0) log.warn('orphan_containers_removed', { count: removed.length });
  const networks = await removeOrphanNetworks(options.docker, (labels) => ownedByDeadWorker(labels, owner));
  if (networks > 0) log.warn('orphan_networks_removed', { count: networks });
  const activities = createActivities({
    docker: options.docker,
    owner,
    baseImageTag: options.baseImageTag,
    maxAgentOutputBytes: Number(process.env.TRL_MAX_AGENT_OUTPUT_BYTES ?? 64 * 1024 * 1024),
    allowlist: loadAllowlist(),
    upstream: options.upstream,
    policyImage: options.policyImage,
    sidecarImage: options.sidecarImage,
    budgetCapUsd: options.config.TRL_BUDGET_CAP_USD,
    policyRequestTimeoutMs: options.config.TRL_POLICY_REQUEST_TIMEOUT_SEC * 1000,
    spendLedger: await openWorkerSpendLedger({ submissionCeilingUsd: options.config.TRL_SUBMISSION_CEILING_USD, dailyCeilingUsd: options.config.TRL_DAILY_CEILING_USD }),
    seat: options.seat,
    tapeUpstream: createTapeUpstream,
  });
  return Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    workflowBundle: options.workflowBundle ?? (await bundleWorkflows()),
    activities,
    identity: `trl-worker@${owner.id}`,
    // Sandboxed scenarios are mostly waiting on Docker; the cap protects a 2-core machine.
    maxConcurrentActivityTaskExecutions: options.maxConcurrentActivities ?? Number(process.env.TRL_MAX_CONCURRENT_ACTIVITIES ?? 4),
    shutdownGraceTime: '10 seconds',
  });
}
