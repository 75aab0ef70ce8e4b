// Fault: the Temporal server restarted mid-evaluation (a server of this test's own, on its own port
// and SQLite file — never the shared one). The worker rides the outage out and the evaluation
// completes as the undisturbed one did, or ends `incomplete`; nothing is left behind.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkflowHandle } from '@temporalio/client';
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
import { ownTemporalServer, type OwnTemporalServer } from './own-temporal-server.ts';

/** The result, asked again while the server is away. */
async function resultThroughOutage(handle: WorkflowHandle): Promise<EvaluationResult> {
  for (let tries = 0; ; tries++) {
    try {
      return (await handle.result()) as EvaluationResult;
    } catch (error) {
      if (tries >= 60) throw error;
      await sleep(2000);
    }
  }
}

describe('fault: the Temporal server restarted mid-evaluation', () => {
  let server: OwnTemporalServer;
  let harness: Harness;
  let worker: FaultWorker;
  let baseline: EvaluationResult;
  const sharedAddress = process.env.TRL_TEMPORAL_ADDRESS;

  before(async () => {
    server = await ownTemporalServer();
    await server.start();
    // The harness (search attributes, client) and the worker process follow this variable.
    process.env.TRL_TEMPORAL_ADDRESS = server.address;
    harness = await startHarness({ withWorker: false });
    worker = await startFaultWorker(harness.taskQueue, { TRL_MODELS_FILE: calmModelsFile() });
    baseline = await (await startFaultEvaluation(harness.client, harness.taskQueue, 'faults-calm')).result();
    assert.equal(baseline.status, 'completed', JSON.stringify(baseline.perScenario));
  });
  after(async () => {
    await worker?.kill('SIGTERM');
    await harness?.close().catch(() => undefined);
    removeFaultTempDirs();
    await server?.destroy();
    if (sharedAddress === undefined) delete process.env.TRL_TEMPORAL_ADDRESS;
    else process.env.TRL_TEMPORAL_ADDRESS = sharedAddress;
  });

  test('stopped while the agent runs and started again: identical or incomplete, and the worker lives on', async (t) => {
    const handle = await startFaultEvaluation(harness.client, harness.taskQueue, 'faults-temporal');
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
    await server.stop();
    await sleep(10_000);
    await server.start();
    const result = await resultThroughOutage(handle);
    const { verdict, why } = verdictOf(baseline, result);
    t.diagnostic(`fault temporal-restart: ${verdict} (${why})`);
    assert.notEqual(verdict, 'wrong', why);
    assertWorkerAlive(worker);
    await assertNothingLeft(harness.docker, handle.workflowId, []);
  });
});
