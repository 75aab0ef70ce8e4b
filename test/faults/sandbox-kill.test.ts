// Fault: a sandbox container killed from outside mid-run (`docker kill` of the agent's container,
// then of the policy sidecar). Neither the agent nor the policy did it: the scenario is run again,
// and the evaluation is identical to the undisturbed one or `incomplete`, never scored on the kill.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { EvaluationResult } from '../../contracts/results.ts';
import { containerLabels } from '../../sandbox/container-labels.ts';
import { listManagedContainers } from '../../sandbox/orphan-cleanup.ts';
import { startHarness, type Harness } from '../support/evaluation-harness.ts';
import { waitFor } from '../support/worker-process.ts';
import {
  assertNothingLeft,
  calmModelsFile,
  startFaultEvaluation,
  startFaultWorker,
  verdictOf,
  type FaultWorker,
  removeFaultTempDirs,
  assertWorkerAlive,
} from './fault-harness.ts';

describe('fault: a sandbox container killed from outside', () => {
  let harness: Harness;
  let worker: FaultWorker;
  let baseline: EvaluationResult;

  before(async () => {
    harness = await startHarness({ withWorker: false });
    worker = await startFaultWorker(harness.taskQueue, { TRL_MODELS_FILE: calmModelsFile() });
    baseline = await (await startFaultEvaluation(harness.client, harness.taskQueue, 'faults-whole')).result();
    assert.equal(baseline.status, 'completed', JSON.stringify(baseline.perScenario));
  });
  after(async () => {
    await worker?.kill('SIGTERM');
    await harness?.close();
    removeFaultTempDirs();
  });

  const kills = [
    {
      role: 'agent',
      title: 'docker kill of the agent container mid-run: identical or incomplete, never scored on the kill',
    },
    {
      role: 'policy-sidecar',
      title: 'docker kill of the policy sidecar mid-run: identical or incomplete, never scored on the kill',
    },
  ] as const;
  for (const { role, title } of kills) {
    test(title, async (t) => {
      const handle = await startFaultEvaluation(harness.client, harness.taskQueue, `faults-kill-${role}`);
      // Both containers up means the agent has started: the kill lands mid-run.
      const target = await waitFor(
        async () => {
          const containers = await listManagedContainers(harness.docker, [
            `${containerLabels.workflowId}=${handle.workflowId}`,
          ]);
          const running = containers.filter((c) => c.State === 'running');
          return running.some((c) => c.Labels[containerLabels.role] === 'agent')
            ? running.find((c) => c.Labels[containerLabels.role] === role)
            : undefined;
        },
        180_000,
        `the ${role} container`,
      );
      await harness.docker.getContainer(target.Id).kill();
      const result = (await handle.result()) as EvaluationResult;
      const { verdict, why } = verdictOf(baseline, result);
      t.diagnostic(`fault sandbox-kill ${role}: ${verdict} (${why})`);
      assert.notEqual(verdict, 'wrong', why);
      assertWorkerAlive(worker);
      await assertNothingLeft(harness.docker, handle.workflowId, []);
    });
  }
});
