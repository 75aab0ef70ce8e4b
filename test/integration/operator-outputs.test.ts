// What operators take out of real evaluations (Hermes on one scenario with the sim fleet: the
// single-model example, and the cheapest-model example as the report's reference): the worker's
// Prometheus endpoint after the runs, the HTML report, the exported trajectories.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, readFile } from 'node:fs/promises';
import type { EvaluationResult } from '../../contracts/results.ts';
import { metricNames } from '../../common/metrics.ts';
import { startHarness, type Harness } from '../support/evaluation-harness.ts';
import { examplePackDir } from '../support/fixture-packs.ts';
import { examplesDir } from '../../common/data-layout.ts';
import { reportCommand } from '../../cli/commands/report-command.ts';
import { exportCommand } from '../../cli/commands/export-command.ts';
import { externalReferences } from '../../cli/report/self-contained.ts';
import { joinTurns } from '../../cli/trajectory/joined-turns.ts';
import { freeLoopbackPort as freePort } from '../../common/free-loopback-port.ts';

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
  let reference: EvaluationResult;
  let both: EvaluationResult[];
  let metricsText: string;
  let metricsPort: number;

  before(async () => {
    metricsPort = await freePort();
    process.env.TRL_METRICS_PORT = String(metricsPort);
    process.env.TRL_TEMPORAL_METRICS_PORT = String(await freePort());
    harness = await startHarness({ verifierCache: false });
    const scenarios = ['csv-sales-report'];
    [result, reference] = await Promise.all([
      harness.evaluate({ pack: { kind: 'directory', path: examplePackDir }, agent: 'hermes', scenarios }),
      harness.evaluate({
        pack: { kind: 'directory', path: path.join(examplesDir, 'cheapest-model') },
        agent: 'hermes',
        scenarios,
      }),
    ]);
    both = [result, reference];
    metricsText = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  });
  after(async () => {
    await harness?.close();
    delete process.env.TRL_METRICS_PORT;
    delete process.env.TRL_TEMPORAL_METRICS_PORT;
  });

  test('the evaluations ran and spent money through the gateway', () => {
    for (const run of both) {
      assert.equal(run.status, 'completed', JSON.stringify(run.rejection ?? run.perScenario.map((s) => s.error)));
      assert.ok(run.costUsd > 0);
      assert.ok(Object.keys(run.costByModelUsd ?? {}).length > 0);
    }
  });

  test('the metrics endpoint counts the scenarios by status and the spend by model, as the results do', () => {
    const byStatus = samples(metricsText, metricNames.scenarios);
    const statuses = both.map((run) => run.perScenario[0]!.status);
    assert.deepEqual(
      byStatus,
      [...new Set(statuses)].map((status) => ({
        labels: `{status="${status}"}`,
        value: statuses.filter((s) => s === status).length,
      })),
    );
    const expected = new Map<string, number>();
    for (const run of both)
      for (const [model, cost] of Object.entries(run.costByModelUsd!))
        expected.set(model, (expected.get(model) ?? 0) + cost);
    const spend = samples(metricsText, metricNames.spend);
    assert.equal(spend.length, expected.size, spend.map((s) => s.labels).join(', '));
    for (const [model, costUsd] of expected) {
      const line = spend.find((s) => s.labels === `{model="${model}"}`);
      assert.ok(line, `a spend line for ${model}`);
      assert.ok(Math.abs(line.value - costUsd) < 1e-6, `${model}: ${line.value} vs ${costUsd}`);
    }
    const calls = samples(metricsText, metricNames.modelCalls).reduce((sum, s) => sum + s.value, 0);
    assert.ok(calls >= 2);
    assert.equal(
      samples(metricsText, `${metricNames.gatewayLatency}_count`).reduce((sum, s) => sum + s.value, 0),
      calls,
    );
  });

  test('agent and verifier durations are histograms with one observation per scenario run', () => {
    assert.deepEqual(samples(metricsText, `${metricNames.agentDuration}_count`), [
      { labels: '{agent="hermes",outcome="completed"}', value: 2 },
    ]);
    assert.deepEqual(samples(metricsText, `${metricNames.verifierDuration}_count`), [{ labels: '', value: 2 }]);
    const agentSeconds = samples(metricsText, `${metricNames.agentDuration}_sum`)[0]!.value;
    const expected = both.reduce((t, run) => t + run.perScenario[0]!.agentWallMs / 1000, 0);
    assert.ok(Math.abs(agentSeconds - expected) < 0.01, `${agentSeconds} s vs ${expected} s`);
    assert.match(metricsText, new RegExp(`^# TYPE ${metricNames.infraErrors} counter$`, 'm'));
  });

  test("the same scrape carries Temporal's runtime metrics", () => {
    assert.doesNotMatch(metricsText, /temporal runtime metrics unavailable/);
    assert.match(metricsText, /^temporal_[a-z_]+\{[^}]*task_queue="trl-test-[^"]+"[^}]*\} \d/m);
    assert.match(metricsText, /^temporal_activity_execution_latency/m);
  });

  test('trl report: one self-contained page with the scenario, the spend by model, every turn and the reference', async () => {
    const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'trl-report-')), 'report.html');
    assert.equal(await reportCommand({ workflowId: result.workflowId, out: file }), 0);
    const html = await readFile(file, 'utf8');
    assert.match(html, /^<!doctype html>/);
    assert.deepEqual(externalReferences(html), [], 'nothing fetched at view time');
    assert.doesNotMatch(html, /https?:\/\//, 'no URL at all');
    const scenario = result.perScenario[0]!;
    assert.ok(html.includes(`<b>${result.testsPassed}/${result.testsTotal}</b><span>tests passed</span>`));
    assert.ok(
      html.includes(`${scenario.testsPassed}/${scenario.testsTotal} · $${scenario.costUsd.toFixed(4)}`),
      'the scenario bar',
    );
    for (const [model, cost] of Object.entries(result.costByModelUsd!))
      assert.ok(html.includes(`${model}: $${cost.toFixed(4)}`), `spend bar of ${model}`);
    // One timeline cell per recorded turn, each naming the model that answered it.
    const turns = joinTurns(
      await readFile(scenario.artifacts.turnLog!.path, 'utf8'),
      await readFile(scenario.artifacts.modelCallLog!.path, 'utf8'),
    );
    assert.ok(turns.length >= 1);
    const cells = [...html.matchAll(/<g><title>csv-sales-report · turn (\d+) \(req-\d+\): ([^<]*)<\/title>/g)];
    assert.deepEqual(
      cells.map((c) => Number(c[1])),
      turns.map((t) => t.turn),
    );
    for (const [i, cell] of cells.entries()) assert.ok(cell[2]!.startsWith(turns[i]!.calls[0]!.model), cell[2]);
    // The cheapest pin's real run is the reference point, counted on the same scenario.
    assert.ok(
      html.includes(
        `<td>cheapest pin (cheapest-model)</td><td>${reference.workflowId}</td><td class="num">${reference.testsPassed}/${reference.testsTotal}</td><td class="num">${reference.costUsd.toFixed(4)}</td>`,
      ),
      'the reference row',
    );
    assert.ok(html.includes('<title>cheapest pin (cheapest-model): '), 'the reference point on the chart');
  });

  test('trl export: ATIF, ShareGPT and our JSON lines carry the conversation and the model call behind every turn', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-export-'));
    const scenario = result.perScenario[0]!;
    const turns = joinTurns(
      await readFile(scenario.artifacts.turnLog!.path, 'utf8'),
      await readFile(scenario.artifacts.modelCallLog!.path, 'utf8'),
    );
    const read = async (format: string) => {
      const out = path.join(dir, `${format}.jsonl`);
      assert.equal(await exportCommand({ workflowId: result.workflowId, format, scenarios: [], out }), 0);
      const lines = (await readFile(out, 'utf8')).trim().split('\n');
      assert.equal(lines.length, 1, 'one record per scenario');
      return JSON.parse(lines[0]!) as Record<string, any>;
    };
    const atif = await read('atif');
    assert.equal(atif.schema_version, 'ATIF-v1.4');
    assert.equal(atif.agent.name, 'hermes');
    const agentSteps = atif.steps.filter((s: { source: string }) => s.source === 'agent');
    assert.equal(agentSteps.length, turns.length);
    assert.deepEqual(
      atif.steps.map((s: { step_id: number }) => s.step_id),
      atif.steps.map((_: unknown, i: number) => i + 1),
    );
    assert.equal(atif.steps[0].source, 'system');
    assert.equal(agentSteps[0].model_name, 'kimi-k3', 'single-model pins kimi-k3');
    assert.ok(
      Math.abs(atif.final_metrics.total_cost_usd - scenario.costUsd) < 1e-6,
      `${atif.final_metrics.total_cost_usd} vs ${scenario.costUsd}`,
    );
    assert.equal(atif.extra.tests_passed, scenario.testsPassed);
    // Every tool call the model made has its result as an observation (the last answer has none).
    for (const step of agentSteps.slice(0, -1)) {
      for (const call of step.tool_calls ?? [])
        assert.ok(
          step.observation.results.some((r: { source_call_id: string }) => r.source_call_id === call.tool_call_id),
          call.tool_call_id,
        );
    }
    const sharegpt = await read('sharegpt');
    assert.ok(sharegpt.system.length > 0);
    assert.equal(sharegpt.conversations[0].from, 'human');
    assert.ok(sharegpt.conversations.some((c: { from: string }) => c.from === 'gpt' || c.from === 'function_call'));
    assert.ok(JSON.parse(sharegpt.tools).length > 0, 'the tools Hermes offered');
    const ours = await read('jsonl');
    assert.equal(ours.turns.length, turns.length);
    assert.deepEqual(
      ours.turns.map((t: { model_calls: { model: string }[] }) => t.model_calls[0]!.model),
      turns.map((t) => t.calls[0]!.model),
    );
    await assert.rejects(
      exportCommand({ workflowId: result.workflowId, format: 'csv', scenarios: [] }),
      /--format must be one of atif, sharegpt, jsonl/,
    );
  });
});
