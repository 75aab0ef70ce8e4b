// Builds the evaluation workers of one process, by role (docs/explanation/roles-and-queues.md): the
// orchestration worker (workflows from workflows/, pre-evaluation, probe, aggregation, seat, chain)
// on the evaluation queue; the sandbox role as two workers, one taking claims from the shared
// sandbox queue and one serving this host's own queue (prepare, run, verify). Activities wired with real clients.
import path from 'node:path';
import { NativeConnection, Worker, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type Docker from 'dockerode';
import { Client } from '@temporalio/client';
import { activitiesOfRole, createActivities } from '../activities/index.ts';
import { HostClaims } from '../activities/host-claims.ts';
import { hostClaimTiming } from '../contracts/host-claim-timing.ts';
import { CoreGate } from '../common/core-gate.ts';
import { hostBudget, calibratedScenarioCost } from './host-budget.ts';
import { sampleNetworksLeft } from '../sandbox/address-pools.ts';
import { ContainerUsage, sampleContainerUsage } from '../sandbox/container-usage.ts';
import { sandboxHostTaskQueue, sandboxTaskQueue } from '../contracts/temporal-names.ts';
import { repoRoot } from '../common/data-layout.ts';
import { currentWorkerIdentity } from '../sandbox/worker-identity.ts';
import { ownedByDeadWorker, removeOrphanContainers } from '../sandbox/orphan-cleanup.ts';
import { removeOrphanNetworks } from '../sandbox/run-network.ts';
import { removeOrphanChannelDirs } from '../policy/host/policy-channel.ts';
import { log } from '../common/log.ts';
import { loadAllowlist } from '../gateway/catalog/allowlist.ts';
import { openWorkerSpendLedger } from '../gateway/spend/worker-spend-ledger.ts';
import type { WorkerConfig } from './worker-config.ts';
import { sharedBlobStore } from '../common/store/open-blob-store.ts';
import { createTapeUpstream } from './tape-upstream.ts';
import type { ChatUpstream } from '../gateway/upstream/chat-upstream.ts';
import type { SeatActivityDependencies } from '../activities/seat-activities.ts';
import { steadyHeartbeatInterceptor } from './steady-heartbeat.ts';
import { readSetting } from '../common/settings/setting.ts';
import { workerSettings } from '../common/settings/worker-settings.ts';
import { internalSettings } from '../common/settings/test-settings.ts';
import { VerifierCache } from '../verifiers/verifier-cache.ts';
import { cachedWorkflowBundle } from './workflow-bundle-cache.ts';

export const workflowsPath = path.join(repoRoot, 'workflows', 'index.ts');
/** Workflow interceptors bundled with the workflows (a failed evaluation's TrlStatus). */
export const workflowInterceptorModules = [path.join(repoRoot, 'workflows', 'failed-status-interceptor.ts')];

/** The workflow bundle; `path` replaces the project's workflows (replaying against other code). */
export async function bundleWorkflows(path = workflowsPath): Promise<WorkflowBundleWithSourceMap> {
  return cachedWorkflowBundle([path, ...workflowInterceptorModules], () =>
    bundleWorkflowCode({ workflowsPath: path, workflowInterceptorModules, logger: quietBundlerLogger }),
  );
}

const quietBundlerLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => log.warn('workflow_bundle', { message }),
  error: (message: string) => log.error('workflow_bundle', { message }),
};

export type WorkerRole = 'orchestration' | 'sandbox';
export const workerRoles: readonly WorkerRole[] = ['orchestration', 'sandbox'];

/** A claim whose scenario has had nothing running this long (given up, or waiting at the seat's gate) frees its room.
 * */
const claimIdleMs = 120_000;
/** The orchestration worker's activity slots when TRL_MAX_CONCURRENT_ACTIVITIES is unset. */
const defaultOrchestrationSlots = 4;

export interface EvaluationWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  /** The evaluation queue; the sandbox and host queues derive from it. */
  taskQueue: string;
  /** Default: both, in this process. */
  roles?: readonly WorkerRole[];
  /** The sandbox host's id (TRL_WORKER_HOST_ID, else hostname-pid): its own queue is named after it. */
  hostId: string;
  docker: Docker;
  baseImageTag: string;
  policyImage: string;
  /** The Python policy sidecar image (python / data packs). */
  sidecarImage?: string;
  upstream: ChatUpstream;
  /** Why the pre-evaluation's LLM judge is not asked on this upstream (ModelUpstream.judgeSkipped). */
  judgeSkipped?: string;
  config: WorkerConfig;
  workflowBundle?: WorkflowBundleWithSourceMap;
  maxConcurrentActivities?: number;
  seat?: SeatActivityDependencies;
  /** Reuse the test run's verifier results (TRL_VERIFIER_CACHE_DIR); false for a test of the verifier itself. */
  verifierCache?: boolean;
}

/** This process's workers, one per queue it polls; they run and stop together. */
export interface EvaluationWorkers {
  workers: Worker[];
  roles: readonly WorkerRole[];
  /** The queues polled, for the operator's first lines. */
  queues: string[];
  run(): Promise<void>;
  shutdown(): void;
}

export async function createEvaluationWorker(options: EvaluationWorkerOptions): Promise<EvaluationWorkers> {
  const roles = options.roles ?? workerRoles;
  const sandboxRole = roles.includes('sandbox');
  const orchestrationRole = roles.includes('orchestration');
  // The orchestration worker's slots; when set, also a cap on a sandbox host's scenarios (its budget bounds them anyway).
  const slotCap = options.maxConcurrentActivities ?? readSetting(workerSettings, 'TRL_MAX_CONCURRENT_ACTIVITIES');
  const maxConcurrent = slotCap ?? defaultOrchestrationSlots;
  const calibrated = calibratedScenarioCost();
  const budget = hostBudget(slotCap, calibrated);
  const hostQueue = sandboxHostTaskQueue(options.taskQueue, options.hostId);
  // The blob store's settings (TRL_STORE, TRL_S3_*) and its bucket checked now: a bad one stops the worker, not each
  // fetchPack.
  await sharedBlobStore().checkAccess();
  const owner = currentWorkerIdentity();
  const removed = await removeOrphanContainers(options.docker, owner);
  if (removed.length > 0) log.warn('orphan_containers_removed', { count: removed.length });
  const networks = await removeOrphanNetworks(options.docker, (labels) => ownedByDeadWorker(labels, owner));
  if (networks > 0) log.warn('orphan_networks_removed', { count: networks });
  const channelDirs = await removeOrphanChannelDirs();
  if (channelDirs > 0) log.info('orphan_policy_channels_removed', { count: channelDirs });
  const sandboxHost = sandboxRole
    ? {
        id: options.hostId,
        taskQueue: hostQueue,
        claims: new HostClaims({ budget, calibrated, idleMs: claimIdleMs, settleMs: hostClaimTiming.settleMs }),
        verifierCores: new CoreGate(budget.cpus),
      }
    : undefined;
  const activities = createActivities({
    docker: options.docker,
    owner,
    baseImageTag: options.baseImageTag,
    maxAgentOutputBytes: readSetting(workerSettings, 'TRL_MAX_AGENT_OUTPUT_BYTES'),
    allowlist: loadAllowlist(),
    upstream: options.upstream,
    judgeSkipped: options.judgeSkipped,
    policyImage: options.policyImage,
    sidecarImage: options.sidecarImage,
    budgetCapUsd: options.config.TRL_BUDGET_CAP_USD,
    policyRequestTimeoutMs: options.config.TRL_POLICY_REQUEST_TIMEOUT_SEC * 1000,
    spendLedger: await openWorkerSpendLedger({
      submissionCeilingUsd: options.config.TRL_SUBMISSION_CEILING_USD,
      dailyCeilingUsd: options.config.TRL_DAILY_CEILING_USD,
      // Split roles may sit on different hosts: their money goes through the shared ledger workflow.
      kind: options.config.TRL_SPEND_LEDGER ?? (sandboxRole && orchestrationRole ? 'file' : 'workflow'),
      temporal: {
        client: new Client({ connection: options.connection, namespace: options.namespace }),
        taskQueue: options.taskQueue,
      },
      sandboxHost: sandboxRole,
    }),
    seat: options.seat,
    ...verifierCacheOf(options.verifierCache),
    tapeUpstream: createTapeUpstream,
    // The host takes scenarios while its memory and CPU budget allow (activities/host-admission.ts); its queue has
    // slots for as many as the budget could ever admit, so their tasks start at once.
    ...(sandboxHost ? { sandboxHost } : {}),
  });
  // Every activity beats on a steady clock (steady-heartbeat.ts says why).
  const common = {
    connection: options.connection,
    namespace: options.namespace,
    shutdownGraceTime: '10 seconds' as const,
    interceptors: { activity: [steadyHeartbeatInterceptor] },
  };
  const workers: Worker[] = [];
  const queues: string[] = [];
  const add = async (taskQueue: string, worker: Promise<Worker>) => {
    workers.push(await worker);
    queues.push(taskQueue);
  };
  if (orchestrationRole) {
    await add(
      options.taskQueue,
      Worker.create({
        ...common,
        taskQueue: options.taskQueue,
        workflowBundle: options.workflowBundle ?? (await bundleWorkflows()),
        activities: activitiesOfRole(activities, 'orchestration'),
        identity: `trl-orchestration@${owner.id}`,
        maxConcurrentActivityTaskExecutions: maxConcurrent,
      }),
    );
  }
  if (sandboxRole) {
    const identity = `trl-sandbox@${owner.id}/${options.hostId}`;
    await add(
      sandboxTaskQueue(options.taskQueue),
      Worker.create({
        ...common,
        taskQueue: sandboxTaskQueue(options.taskQueue),
        activities: activitiesOfRole(activities, 'sandbox-claim'),
        identity,
        // Two for claims (quick), two for probes (up to a few minutes each): a probe never holds up a claim.
        maxConcurrentActivityTaskExecutions: 4,
      }),
    );
    // Room for claims that lapsed at the seat's gate and come back: the claims, not these slots, bound the scenarios.
    await add(
      hostQueue,
      Worker.create({
        ...common,
        taskQueue: hostQueue,
        activities: activitiesOfRole(activities, 'sandbox-host'),
        identity,
        maxConcurrentActivityTaskExecutions: budget.maxScenarios * 2,
      }),
    );
  }
  // What the host's scenarios really use, measured from their containers, feeds its admission.
  const sampling =
    sandboxHost &&
    sampleContainerUsage(new ContainerUsage(options.docker, owner), (key, cost) =>
      sandboxHost.claims.observe(key, cost),
    );
  // And the networks its scenarios hold (two each) must be left in the engine's address pools.
  const networkSampling =
    sandboxHost &&
    sampleNetworksLeft(options.docker, owner, (networks) => sandboxHost.claims.setNetworksLeft(networks));
  let stopped = false;
  return {
    workers,
    roles,
    queues,
    async run() {
      if (stopped) return;
      // One stops, all stop: a process with half its roles would take work it cannot finish.
      const running = workers.map((worker) => worker.run().finally(() => stopAll()));
      const settled = await Promise.allSettled(running);
      const failed = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      if (failed) throw failed.reason;
    },
    shutdown: () => stopAll(),
  };

  function stopAll(): void {
    stopped = true;
    sampling?.stop();
    networkSampling?.stop();
    for (const worker of workers) {
      if (worker.getState() === 'RUNNING') worker.shutdown();
    }
  }
}

/** The test run's verifier cache when `trl test` names one and the caller has not turned it off. */
function verifierCacheOf(wanted: boolean | undefined): { verifierCache?: VerifierCache } {
  const dir = readSetting(internalSettings, 'TRL_VERIFIER_CACHE_DIR');
  return dir !== undefined && wanted !== false ? { verifierCache: new VerifierCache(dir) } : {};
}
