// Fault: the worker's data directory (TRL_DATA_DIR: artifacts, pack store, spend ledger, results)
// on a small filesystem of its own that fills up mid-run. Kept full, the evaluation must still end
// — `incomplete`, never scored on it, never hanging; freed again, it ends identical or incomplete.
// A tmpfs mounted for the test (the suite runs as root), unmounted afterwards.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
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

/** Writes zeros into the filesystem until it is full. */
function fill(file: string): void {
  try {
    execFileSync('dd', ['if=/dev/zero', `of=${file}`, 'bs=1M'], { stdio: 'ignore' });
  } catch {
    // dd ends with "No space left on device": that is the point.
  }
}

describe("fault: the data directory's disk filled", () => {
  let harness: Harness;
  let worker: FaultWorker;
  let baseline: EvaluationResult;
  const mountPoint = mkdtempSync(path.join(os.tmpdir(), 'trl-faults-disk-'));
  const dataDir = path.join(mountPoint, 'data');
  const filler = path.join(mountPoint, 'filler');

  before(async () => {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=96m', 'trl-faults-disk', mountPoint]);
    harness = await startHarness({ withWorker: false });
    worker = await startFaultWorker(harness.taskQueue, { TRL_MODELS_FILE: calmModelsFile(), TRL_DATA_DIR: dataDir });
    baseline = await (await startFaultEvaluation(harness.client, harness.taskQueue, 'faults-roomy')).result();
    assert.equal(baseline.status, 'completed', JSON.stringify(baseline.perScenario));
  });
  after(async () => {
    await worker?.kill('SIGTERM');
    await harness?.close();
    removeFaultTempDirs();
    execFileSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  const fillMidRun = async (prefix: string) => {
    const handle = await startFaultEvaluation(harness.client, harness.taskQueue, prefix);
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
    fill(filler);
    return handle;
  };

  test('filled mid-run and kept full: the evaluation ends incomplete, not scored on it', async (t) => {
    const handle = await fillMidRun('faults-full');
    const result = (await handle.result()) as EvaluationResult;
    rmSync(filler, { force: true });
    const { verdict, why } = verdictOf(baseline, result);
    t.diagnostic(`fault disk-full kept: ${verdict} (${why})`);
    assert.notEqual(verdict, 'wrong', why);
    assertWorkerAlive(worker);
    await assertNothingLeft(harness.docker, handle.workflowId, [worker]);
  });

  test('filled mid-run and freed 20 s later: identical or incomplete', async (t) => {
    const handle = await fillMidRun('faults-freed');
    await sleep(20_000);
    rmSync(filler, { force: true });
    const result = (await handle.result()) as EvaluationResult;
    const { verdict, why } = verdictOf(baseline, result);
    t.diagnostic(`fault disk-full freed: ${verdict} (${why})`);
    assert.notEqual(verdict, 'wrong', why);
    assertWorkerAlive(worker);
    await assertNothingLeft(harness.docker, handle.workflowId, [worker]);
  });
});
