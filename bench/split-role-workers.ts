// The production topology inside one bench process: an orchestration worker and `sandboxHosts` sandbox
// workers (one host id each) on a harness's task queue, sharing this machine's cores and Docker engine.
import type { BootstrapResult } from '../infra/bootstrap.ts';
import type { Harness } from '../test/support/evaluation-harness.ts';
import type { WorkerRole } from '../workers/create-worker.ts';
import { startHostedWorker } from '../workers/hosted-worker.ts';

export async function startSplitRoleWorkers(
  harness: Harness,
  stack: BootstrapResult,
  sandboxHosts: number,
  hostIdPrefix: string,
): Promise<{ stop: () => Promise<void> }> {
  const roles: (readonly WorkerRole[])[] = [
    ['orchestration'],
    ...Array.from({ length: sandboxHosts }, () => ['sandbox'] as const),
  ];
  const running = await Promise.all(
    roles.map(async (workerRoles, index) => {
      const hosted = await startHostedWorker({
        docker: harness.docker,
        stack,
        taskQueue: harness.taskQueue,
        workflowBundle: harness.bundle,
        roles: workerRoles,
        ...(index > 0 ? { hostId: `${hostIdPrefix}-${index}` } : {}),
      });
      return { hosted, done: hosted.run() };
    }),
  );
  return {
    stop: async () => {
      for (const { hosted } of running) hosted.shutdown();
      await Promise.allSettled(running.map(({ done }) => done));
    },
  };
}
