// Fault: the model upstream in a storm mid-scenario — every call answered 429, 503, or never
// answered, for a while. A storm the gateway's retries outlast changes nothing; a longer one makes
// the scenario `infra_error` (re-run after a pause, then `incomplete`), never the policy's failure.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { EvaluationResult } from '../../contracts/results.ts';
import { loadAllowlist } from '../../gateway/catalog/allowlist.ts';
import { startSimFleet, type SimFleet } from '../../simfleet/sim-fleet-server.ts';
import { startHarness, type Harness } from '../support/evaluation-harness.ts';
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
import { startStormProxy, type Storm, type StormProxy } from './storm-proxy.ts';

const storms: (Storm & { title: string })[] = [
  { title: 'a short 429 storm', kind: '429', fromCall: 2, durationMs: 6_000 },
  { title: "a 503 storm longer than the gateway's retries", kind: '503', fromCall: 2, durationMs: 45_000 },
  { title: 'a storm of calls never answered', kind: 'timeout', fromCall: 2, durationMs: 30_000 },
  { title: 'a 503 storm outlasting every try of the scenario', kind: '503', fromCall: 2, durationMs: 600_000 },
];

describe('fault: the model upstream in a 429 / 503 / timeout storm', () => {
  let harness: Harness;
  let fleet: SimFleet;
  let proxy: StormProxy;
  let worker: FaultWorker;
  let baseline: EvaluationResult;

  before(async () => {
    harness = await startHarness({ withWorker: false });
    const modelsFile = calmModelsFile();
    fleet = await startSimFleet({ port: 0, timeScale: 0, allowlist: loadAllowlist(modelsFile), mode: 'fast' });
    proxy = await startStormProxy(fleet.url);
    worker = await startFaultWorker(harness.taskQueue, {
      TRL_MODELS_FILE: modelsFile,
      TRL_UPSTREAM_BASE_URL: proxy.url,
      TRL_UPSTREAM_API_KEY: 'sim',
      TRL_UPSTREAM_TIMEOUT_SEC: '5',
    });
    baseline = await (await startFaultEvaluation(harness.client, harness.taskQueue, 'faults-calm')).result();
    assert.equal(baseline.status, 'completed', JSON.stringify(baseline.perScenario));
  });
  after(async () => {
    await worker?.kill('SIGTERM');
    await proxy?.close();
    await fleet?.close();
    await harness?.close();
    removeFaultTempDirs();
  });

  for (const storm of storms) {
    test(`${storm.title}: identical or incomplete, never the policy's failure`, async (t) => {
      const failedBefore = proxy.failed();
      proxy.arm(storm);
      const handle = await startFaultEvaluation(harness.client, harness.taskQueue, `faults-storm-${storm.kind}`);
      const result = (await handle.result()) as EvaluationResult;
      assert.ok(proxy.failed() > failedBefore, 'the storm never hit a call');
      const { verdict, why } = verdictOf(baseline, result);
      t.diagnostic(
        `fault upstream-storm ${storm.kind} ${storm.durationMs} ms: ${verdict} (${why}); calls failed ${proxy.failed() - failedBefore}`,
      );
      assert.notEqual(verdict, 'wrong', why);
      for (const scenario of result.perScenario) assert.notEqual(scenario.status, 'policy_error', scenario.error);
      if (storm.durationMs >= 600_000)
        assert.equal(verdict, 'incomplete', "a storm past every try leaves the scenario the infrastructure's");
      assertWorkerAlive(worker);
      await assertNothingLeft(harness.docker, handle.workflowId, []);
    });
  }
});
