// Hermes through the local model, end to end: real agent, real model, real verifiers, with each
// kind of policy (TypeScript, Python SDK, policy.json), then a tape of the TypeScript run replayed
// at $0 with the same answers. Scores are low for a 135M model; what is checked is that every step
// is real and nothing in the chain breaks on real output: each scenario completes and is verified,
// its calls are metered from the server's usage at the frozen prices, provenance covers the
// answers, and the logs the report page reads are written.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { tapeOf } from '../../cli/commands/eval-command.ts';
import { repoRoot } from '../../common/data-layout.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { loadTape } from '../../gateway/tape/call-tape.ts';
import { startHarness, type Harness } from '../support/evaluation-harness.ts';

const scenarios = (
  process.env.TRL_REAL_MODEL_SCENARIOS ?? 'csv-sales-report,fix-inventory-bug,sqlite-orders-analytics'
).split(',');
const packs = ['cost-cascade', 'sdk-cascade', 'pin-glm-flash'];

describe('Hermes through the local model', () => {
  let harness: Harness;
  const results: Record<string, EvaluationResult> = {};
  let replayed: EvaluationResult;

  before(async () => {
    process.env.TRL_UPSTREAM = 'local-model';
    // An agent request waits for the policy's whole model call: on this shared 2-core machine one answer of the
    // local model takes minutes (its calls get 900 s: workers/model-upstream.ts), past the 300 s default.
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
    const { tape } = await tapeOf(results['cost-cascade']!.workflowId, scenarios);
    replayed = await harness.evaluate({
      pack: { kind: 'directory', path: path.join(repoRoot, 'policy', 'examples', 'cost-cascade') },
      agent: 'hermes',
      scenarios,
      seed: 1,
      tape,
    });
  });
  after(async () => {
    await harness?.close();
    delete process.env.TRL_UPSTREAM;
    delete process.env.TRL_POLICY_REQUEST_TIMEOUT_SEC;
  });

  for (const name of packs)
    test(`${name}: every scenario runs, is verified, metered and covered by provenance`, () => {
      const result = results[name]!;
      assert.equal(result.status, 'completed', JSON.stringify(result.rejection));
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
      }
    });

  test('the tape of the TypeScript run replays at $0 with identical answers', async () => {
    assert.equal(replayed.costUsd, 0);
    for (const [i, before] of results['cost-cascade']!.perScenario.entries()) {
      const now = replayed.perScenario[i]!;
      assert.equal(now.status, before.status, now.error);
      assert.equal(now.testsPassed, before.testsPassed);
      const original = loadTape(await readFile(before.artifacts.modelCallLog!.path, 'utf8'));
      const again = loadTape(await readFile(now.artifacts.modelCallLog!.path, 'utf8'));
      const withoutUsage = (response: unknown) => ({ ...(response as object), usage: undefined });
      assert.deepEqual(
        again.map((e) => withoutUsage(e.response)),
        original.map((e) => withoutUsage(e.response)),
      );
    }
  });
});
