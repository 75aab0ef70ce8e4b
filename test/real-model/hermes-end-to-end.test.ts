// Hermes through the local model, end to end: real agent, real model, real verifiers, with each
// kind of policy (TypeScript, Python SDK, policy.json). Scores are low for a 0.5B model; what is
// checked is that every step is real and nothing in the chain breaks on real output: each scenario
// completes and is verified, its calls are metered from the server's usage at the frozen prices,
// provenance covers the answers, and `trl report` draws the run's page from what was written.
// The tape of such a run is replayed by tape-replay.test.ts.
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { reportCommand } from '../../cli/commands/report-command.ts';
import { externalReferences } from '../../cli/report/self-contained.ts';
import { joinTurns } from '../../cli/trajectory/joined-turns.ts';
import { repoRoot } from '../../common/data-layout.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { startHarness, type Harness } from '../support/evaluation-harness.ts';
import { realModelScenarios } from './local-model-fixture.ts';

const scenarios = realModelScenarios();
const packs = ['cost-cascade', 'sdk-cascade', 'pin-glm-flash'];

describe('Hermes through the local model', () => {
  let harness: Harness;
  const results: Record<string, EvaluationResult> = {};

  before(async () => {
    process.env.TRL_UPSTREAM = 'local-model';
    // An agent request waits for the policy's whole model call, which on a loaded 2-core machine can take
    // minutes (the local model's calls get 900 s: workers/model-upstream.ts), past the 300 s default.
    process.env.TRL_POLICY_REQUEST_TIMEOUT_SEC = '900';
    harness = await startHarness();
    // One pack at a time: two llama-server slots on two cores.
    for (const name of packs)
      results[name] = await harness.evaluate({
        pack: { kind: 'directory', path: path.join(repoRoot, 'policy', 'examples', name) },
        agent: 'hermes',
        scenarios,
        seed: 1,
      });
  });
  after(async () => {
    await harness?.close();
    delete process.env.TRL_UPSTREAM;
    delete process.env.TRL_POLICY_REQUEST_TIMEOUT_SEC;
  });

  for (const name of packs)
    test(`${name}: every scenario runs, is verified, metered and covered by provenance; its report page draws`, async (t) => {
      const result = results[name]!;
      assert.equal(result.status, 'completed', JSON.stringify(result.rejection));
      assert.deepEqual(
        result.perScenario.map((s) => s.name),
        scenarios,
      );
      for (const scenario of result.perScenario) {
        const detail = `${name}/${scenario.name}: ${scenario.status} ${scenario.error ?? ''} ${JSON.stringify(scenario.policyFaults ?? [])}`;
        // A real model's mistakes are the policy's (a scenario it fails); never the chain's.
        assert.notEqual(scenario.status, 'infra_error', detail);
        assert.ok(scenario.testsTotal > 0, detail);
        assert.ok(
          scenario.artifacts.turnLog && scenario.artifacts.modelCallLog && scenario.artifacts.agentRecords,
          detail,
        );
        assert.ok(scenario.costUsd > 0 && scenario.costUsd <= 1, `${detail}: cost ${scenario.costUsd}`);
        assert.ok(
          scenario.provenance && scenario.provenance.coverage >= 0.95,
          `${detail}: provenance ${JSON.stringify(scenario.provenance)}`,
        );
        const turns = joinTurns(
          await readFile(scenario.artifacts.turnLog!.path, 'utf8'),
          await readFile(scenario.artifacts.modelCallLog!.path, 'utf8'),
        );
        assert.ok(turns.length >= 1, `${detail}: no turn recorded`);
        const calls = turns.flatMap((turn) => turn.calls);
        assert.ok(calls.length >= 1, `${detail}: no model call behind its turns`);
        // Every booked call was metered from the server's usage (tokens it reported), not estimated.
        for (const call of calls.filter((c) => c.status === 'ok'))
          assert.ok(call.promptTokens > 0 && call.completionTokens >= 0, `${detail}: ${JSON.stringify(call)}`);
        const toolCalls = turns.reduce((n, turn) => n + (turn.response?.tool_calls?.length ?? 0), 0);
        t.diagnostic(
          `${scenario.name}: ${scenario.status}, ${scenario.testsPassed}/${scenario.testsTotal} tests, ${turns.length} turns, ` +
            `${calls.length} calls, ${toolCalls} tool calls, $${scenario.costUsd.toFixed(6)}, agent ${scenario.agentWallMs} ms, ` +
            `verifier ${scenario.verifierWallMs} ms, provenance ${scenario.provenance!.coverage}`,
        );
      }
      const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'trl-real-report-')), 'report.html');
      assert.equal(await reportCommand({ workflowId: result.workflowId, out: file }), 0);
      const html = await readFile(file, 'utf8');
      assert.match(html, /^<!doctype html>/);
      assert.deepEqual(externalReferences(html), [], 'nothing fetched at view time');
      assert.ok(html.includes(`<b>${result.testsPassed}/${result.testsTotal}</b><span>tests passed</span>`));
      for (const scenario of result.perScenario)
        assert.ok(
          html.includes(`${scenario.testsPassed}/${scenario.testsTotal} · $${scenario.costUsd.toFixed(4)}`),
          `the bar of ${scenario.name}`,
        );
    });
});
