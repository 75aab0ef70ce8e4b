// Stand-in activities on real Temporal workers, one per queue the evaluation uses (README "Roles
// and host queues"): the workflows and the orchestration's activities on the evaluation queue, a
// claim that always names one host on the shared sandbox queue, and the scenario's activities on
// that host's queue. For tests of the workflow's decisions, not of the sandbox.
import { NativeConnection, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { sandboxHostTaskQueue, sandboxTaskQueue } from '../../contracts/temporal-names.ts';
import { activitiesOfRole } from '../../activities/index.ts';

export interface StandInWorkers {
  run(): Promise<void>;
  shutdown(): void;
  runUntil<R>(work: () => Promise<R>): Promise<R>;
}

export async function startStandInWorkers(options: { connection: NativeConnection; namespace: string; taskQueue: string; workflowBundle: WorkflowBundleWithSourceMap; activities: Record<string, unknown> }): Promise<StandInWorkers> {
  const hostId = 'stand-in';
  const hostQueue = sandboxHostTaskQueue(options.taskQueue, hostId);
  const common = { connection: options.connection, namespace: options.namespace };
  const workers = [
    await Worker.create({ ...common, taskQueue: options.taskQueue, workflowBundle: options.workflowBundle, activities: activitiesOfRole(options.activities, 'orchestration') }),
    await Worker.create({ ...common, taskQueue: sandboxTaskQueue(options.taskQueue), activities: { claimSandboxHost: async () => ({ hostId, taskQueue: hostQueue }) } }),
    await Worker.create({ ...common, taskQueue: hostQueue, activities: activitiesOfRole(options.activities, 'sandbox-host') }),
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
