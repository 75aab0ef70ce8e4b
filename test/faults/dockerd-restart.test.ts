// Fault: the Docker engine restarted while the agent runs (dockerd stopped with SIGTERM, as a
// service manager does, and started again the way the project starts it). Every container of the
// run is gone with it; the attempt is the infrastructure's: tried again, the evaluation identical or
// `incomplete`, and no container or network of the run is left behind.
// The engine is shared with every other test on this machine: the restart waits (up to 10 minutes)
// until no other container runs, and is skipped, saying so, if that never happens.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EvaluationResult } from '../../contracts/results.ts';
import { ensureDockerEngine } from '../../infra/docker-engine.ts';
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

const quietWaitMs = 10 * 60_000;

describe('fault: dockerd restarted mid-scenario', () => {
  let harness: Harness;
  let worker: FaultWorker;
  let baseline: EvaluationResult;

  /** Running containers that are not this run's: other tests on the same engine. */
  const others = async (workflowId?: string) => {
    const running = await harness.docker.listContainers({});
    return running.filter((c) => !workflowId || c.Labels[containerLabels.workflowId] !== workflowId);
  };

  before(async () => {
    harness = await startHarness({ withWorker: false });
    worker = await startFaultWorker(harness.taskQueue, { TRL_MODELS_FILE: calmModelsFile() });
    baseline = await (await startFaultEvaluation(harness.client, harness.taskQueue, 'faults-engine-up')).result();
    assert.equal(baseline.status, 'completed', JSON.stringify(baseline.perScenario));
  });
  after(async () => {
    await worker?.kill('SIGTERM');
    await harness?.close();
    removeFaultTempDirs();
  });

  test('restarted while the agent runs: identical or incomplete, nothing left behind', async (t) => {
    const deadline = performance.now() + quietWaitMs;
    while ((await others()).length > 0) {
      if (performance.now() > deadline)
        return t.skip(
          `other tests kept containers running for ${quietWaitMs / 60_000} minutes; dockerd was not restarted`,
        );
      await sleep(5000);
    }
    const handle = await startFaultEvaluation(harness.client, harness.taskQueue, 'faults-engine');
    await waitFor(
      async () => {
        const containers = await listManagedContainers(harness.docker, [
          `${containerLabels.workflowId}=${handle.workflowId}`,
          `${containerLabels.role}=agent`,
        ]);
        return containers.find((c) => c.State === 'running');
      },
      180_000,
      'the agent container',
    );
    const pid = Number(readFileSync('/var/run/docker.pid', 'utf8').trim());
    assert.ok(pid > 1, "dockerd's pid file");
    t.diagnostic(`other containers running at the restart: ${(await others(handle.workflowId)).length}`);
    process.kill(pid, 'SIGTERM');
    await waitFor(
      async () => {
        try {
          process.kill(pid, 0);
          return undefined;
        } catch {
          return true;
        }
      },
      60_000,
      'dockerd to stop',
    );
    await ensureDockerEngine(harness.docker);
    const result = (await handle.result()) as EvaluationResult;
    const { verdict, why } = verdictOf(baseline, result);
    t.diagnostic(`fault dockerd-restart: ${verdict} (${why})`);
    assert.notEqual(verdict, 'wrong', why);
    assertWorkerAlive(worker);
    await assertNothingLeft(harness.docker, handle.workflowId, []);
  });
});
