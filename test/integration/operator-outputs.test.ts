// What operators take out of a real evaluation (Hermes, the single-model example, one scenario, the
// sim fleet): the worker's Prometheus endpoint after the run, the HTML report, the exported
// trajectories. One evaluation serves all three.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { EvaluationResult } from '../../contracts/results.ts';
import { metricNames } from '../../common/metrics.ts';
import { startHarness, type Harness } from '../support/evaluation-harness.ts';
import { examplePackDir } from '../support/fixture-packs.ts';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** `name{labels} value` lines of one metric family (samples only, no comments). */
function samples(text: string, name: string): { labels: string; value: number }[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .map((line) => {
      const match = /^[^{\s]+(\{[^}]*\})?\s+(\S+)/.exec(line)!;
      return { labels: match[1] ?? '', value: Number(match[2]) };
    });
}

describe('operator outputs of a real evaluation', () => {
  let harness: Harness;
  let result: EvaluationResult;
  let metricsText: string;
  let metricsPort: number;

  before(async () => {
    metricsPort = await freePort();
    process.env.TRL_METRICS_PORT = String(metricsPort);
    process.env.TRL_TEMPORAL_METRICS_PORT = String(await freePort());
    harness = await startHarness();
    result = await harness.evaluate({ pack: { kind: 'directory', path: examplePackDir }, agent: 'hermes', scenarios: ['csv-sales-report'] });
    metricsText = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  });
  after(async () => {
    await harness?.close();
    delete process.env.TRL_METRICS_PORT;
    delete process.env.TRL_TEMPORAL_METRICS_PORT;
  });

  test('the evaluation ran and spent money through the gateway', () => {
    assert.equal(result.status, 'completed', JSON.stringify(result.rejection ?? result.perScenario.map((s) => s.error)));
    assert.ok(result.costUsd > 0);
    assert.ok(Object.keys(result.costByModelUsd ?? {}).length > 0);
  });

  test('the metrics endpoint counts the scenario by status and the spend by model, as the result does', () => {
    const scenario = result.perScenario[0]!;
    const byStatus = samples(metricsText, metricNames.scenarios);
    assert.deepEqual(byStatus, [{ labels: `{status="${scenario.status}"}`, value: 1 }]);
    const spend = samples(metricsText, metricNames.spend);
    for (const [model, costUsd] of Object.entries(result.costByModelUsd!)) {
      const line = spend.find((s) => s.labels === `{model="${model}"}`);
      assert.ok(line, `a spend line for ${model} in\n${spend.map((s) => s.labels).join('\n')}`);
      assert.ok(Math.abs(line.value - costUsd) < 1e-6, `${model}: ${line.value} vs ${costUsd}`);
    }
    const calls = samples(metricsText, metricNames.modelCalls).reduce((sum, s) => sum + s.value, 0);
    assert.ok(calls >= 1);
    assert.equal(samples(metricsText, `${metricNames.gatewayLatency}_count`).reduce((sum, s) => sum + s.value, 0), calls);
  });

  test('agent and verifier durations are histograms with one observation each', () => {
    const agent = samples(metricsText, `${metricNames.agentDuration}_count`);
    assert.deepEqual(agent, [{ labels: '{agent="hermes",outcome="completed"}', value: 1 }]);
    assert.deepEqual(samples(metricsText, `${metricNames.verifierDuration}_count`), [{ labels: '', value: 1 }]);
    const agentSeconds = samples(metricsText, `${metricNames.agentDuration}_sum`)[0]!.value;
    assert.ok(Math.abs(agentSeconds - result.perScenario[0]!.agentWallMs / 1000) < 0.01, `${agentSeconds} s vs ${result.perScenario[0]!.agentWallMs} ms`);
    assert.match(metricsText, new RegExp(`^# TYPE ${metricNames.infraErrors} counter$`, 'm'));
  });

  test("the same scrape carries Temporal's runtime metrics", () => {
    assert.doesNotMatch(metricsText, /temporal runtime metrics unavailable/);
    assert.match(metricsText, /^temporal_[a-z_]+\{[^}]*task_queue="trl-test-[^"]+"[^}]*\} \d/m);
    assert.ok(samples(metricsText, 'temporal_activity_execution_latency_count').length > 0 || /^temporal_activity_execution_latency/m.test(metricsText), 'activity latency from the SDK');
  });
});
