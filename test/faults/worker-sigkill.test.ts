// Fault: the worker process SIGKILLed at seeded random points of a Hermes evaluation, ten times.
// Each time a new worker takes over; the evaluation completes with the undisturbed run's
// per-scenario results, or ends `incomplete` with the scenario the infrastructure's, and leaves no
// container, network or temp file behind.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EvaluationResult } from '../../contracts/results.ts';
import { startHarness, type Harness } from '../support/evaluation-harness.ts';
import { readSetting } from '../../common/settings/setting.ts';
import { internalSettings } from '../../common/settings/test-settings.ts';
import {
  assertNothingLeft,
  calmModelsFile,
  seededRandom,
  startFaultEvaluation,
  startFaultWorker,
  verdictOf,
  type FaultWorker,
  type Verdict,
  removeFaultTempDirs,
} from './fault-harness.ts';

const kills = readSetting(internalSettings, 'TRL_FAULT_KILLS');

describe('fault: the worker SIGKILLed at random points', () => {
  let harness: Harness;
  let baseline: EvaluationResult;
  let baselineMs: number;
  const workers: FaultWorker[] = [];
  const env = { TRL_MODELS_FILE: calmModelsFile() };
  let worker: FaultWorker;

  before(async () => {
    harness = await startHarness({ withWorker: false });
    worker = await startFaultWorker(harness.taskQueue, env);
    workers.push(worker);
    const started = performance.now();
    const handle = await startFaultEvaluation(harness.client, harness.taskQueue, 'faults-steady');
    baseline = await handle.result();
    baselineMs = performance.now() - started;
    assert.equal(baseline.status, 'completed', JSON.stringify(baseline.perScenario));
  });
  after(async () => {
    for (const each of workers) await each.kill();
    await harness?.close();
    removeFaultTempDirs();
  });

  test(`${kills} kills: each evaluation is identical to the undisturbed one or incomplete, and leaves nothing behind`, async (t) => {
    const random = seededRandom(15);
    const tally: Record<Verdict, number> = { identical: 0, incomplete: 0, wrong: 0 };
    for (let kill = 1; kill <= kills; kill++) {
      const delayMs = Math.round(random() * baselineMs);
      const handle = await startFaultEvaluation(harness.client, harness.taskQueue, `faults-kill-${kill}`);
      await sleep(delayMs);
      await worker.kill('SIGKILL');
      worker = await startFaultWorker(harness.taskQueue, env);
      workers.push(worker);
      const result = (await handle.result()) as EvaluationResult;
      const { verdict, why } = verdictOf(baseline, result);
      tally[verdict]++;
      t.diagnostic(`kill ${kill} at ${delayMs} ms of ~${Math.round(baselineMs)} ms: ${verdict} (${why})`);
      assert.notEqual(verdict, 'wrong', why);
      await assertNothingLeft(harness.docker, handle.workflowId, workers.slice(0, -1));
    }
    t.diagnostic(
      `fault worker-sigkill: runs ${kills}, identical ${tally.identical}, incomplete ${tally.incomplete}, wrong ${tally.wrong}`,
    );
  });
});
