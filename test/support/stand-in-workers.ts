// Stand-in activities on real Temporal workers, one per queue the evaluation uses
// (docs/explanation/roles-and-queues.md): the workflows and the orchestration's activities on the evaluation queue, a
// claim that always names one host on the shared sandbox queue, and the scenario's activities on
// that host's queue (with a release that frees nothing). For tests of the workflow's decisions, not of the sandbox.
import { NativeConnection, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { sandboxHostTaskQueue, sandboxTaskQueue } from '../../contracts/temporal-names.ts';
import { activitiesOfRole } from '../../activities/index.ts';
import type { PreparedScenario } from '../../contracts/results.ts';

const emptyArtifact = { path: '/dev/null', sha256: '0'.repeat(64), sizeBytes: 0 };

/** The stand-ins every workflow test shares up to the scenarios: a pack that passes screening, scenarios as named,
 * prepared at once. */
export const passingPreamble = {
  async fetchPack() {
    return { packHash: 'a'.repeat(64), canonical: emptyArtifact, fileCount: 2, kind: 'typescript' };
  },
  async preEval() {
    return { verdict: 'pass', report: emptyArtifact };
  },
  async probePolicy() {
    return { verdict: 'pass', report: emptyArtifact, conversations: 0 };
  },
  async resolveScenarios(input: { names: string[] }) {
    return { spec: null, scenarios: input.names.map((name) => ({ name, dir: `/scenarios/${name}` })) };
  },
  async prepareScenario(scenario: { name: string; dir: string }): Promise<PreparedScenario> {
    return {
      ...scenario,
      imageTag: 'x',
      category: 'c',
      difficulty: 'easy',
      agentTimeoutSec: 5,
      agentMaxTurns: 5,
      verifierTimeoutSec: 5,
      cpus: 1,
      memoryMb: 256,
      agentOutputs: [],
    };
  },
};

export interface StandInWorkers {
  run(): Promise<void>;
  shutdown(): void;
  runUntil<R>(work: () => Promise<R>): Promise<R>;
}

export async function startStandInWorkers(options: {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  workflowBundle: WorkflowBundleWithSourceMap;
  activities: Record<string, unknown>;
}): Promise<StandInWorkers> {
  const hostId = 'stand-in';
  const hostQueue = sandboxHostTaskQueue(options.taskQueue, hostId);
  const common = { connection: options.connection, namespace: options.namespace };
  const workers = [
    await Worker.create({
      ...common,
      taskQueue: options.taskQueue,
      workflowBundle: options.workflowBundle,
      activities: activitiesOfRole(options.activities, 'orchestration'),
    }),
    await Worker.create({
      ...common,
      taskQueue: sandboxTaskQueue(options.taskQueue),
      activities: {
        ...activitiesOfRole(options.activities, 'sandbox-claim'),
        claimSandboxHost: async () => ({ hostId, taskQueue: hostQueue }),
      },
    }),
    await Worker.create({
      ...common,
      taskQueue: hostQueue,
      // The workflow frees the host's room when a scenario ends; a stand-in host holds none (a test may give its own).
      activities: {
        releaseSandboxHost: async () => ({ released: false }),
        ...activitiesOfRole(options.activities, 'sandbox-host'),
      },
    }),
  ];
  const shutdown = () => {
    for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
  };
  const run = async () => {
    await Promise.all(workers.map((worker) => worker.run().finally(shutdown)));
  };
  return {
    run,
    shutdown,
    async runUntil(work) {
      const running = run();
      try {
        return await work();
      } finally {
        shutdown();
        await running;
      }
    },
  };
}
