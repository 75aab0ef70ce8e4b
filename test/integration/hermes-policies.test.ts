// Policies through the real agent: Hermes in the scenario sandboxes, the sim fleet behind the
// gateway, real verifiers. The outcome follows the sim profiles: the strongest single model passes
// more hidden tests than the cheapest one, and the cheapest one costs less.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { repoRoot } from '../../common/data-layout.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { startHarness, type Harness } from '../support/evaluation-harness.ts';

const scenarios = ['csv-sales-report', 'fix-inventory-bug', 'sqlite-orders-analytics'];

describe('policies through Hermes on the sim fleet', () => {
  let harness: Harness;
  let strongest: EvaluationResult;
  let cheapest: EvaluationResult;

  before(async () => {
    harness = await startHarness();
    const pack = (name: string) => ({
      kind: 'directory' as const,
      path: path.join(repoRoot, 'policy', 'examples', name),
    });
    [strongest, cheapest] = await Promise.all([
      harness.evaluate({ pack: pack('single-model'), agent: 'hermes', scenarios, seed: 1 }),
      harness.evaluate({ pack: pack('cheapest-model'), agent: 'hermes', scenarios, seed: 1 }),
    ]);
  });
  after(async () => harness?.close());

  test('both evaluations complete with every scenario verified; faults only from injected upstream errors', () => {
    for (const result of [strongest, cheapest]) {
      assert.equal(result.status, 'completed');
      assert.equal(result.agent, 'hermes');
      for (const scenario of result.perScenario) {
        // Single-model policies have no fallback: an injected 429/5xx of the sim fleet is theirs to bear.
        const upstreamOnly = (scenario.policyFaults ?? []).every((f) =>
          /rate limited|failed upstream|did not answer in time/.test(f.message),
        );
        assert.ok(
          scenario.status === 'completed' || (scenario.status === 'policy_error' && upstreamOnly),
          `${scenario.name}: ${scenario.error ?? JSON.stringify(scenario.policyFaults)}`,
        );
        assert.ok(scenario.artifacts.turnLog && scenario.artifacts.modelCallLog && scenario.artifacts.agentRecords);
        assert.ok(
          scenario.provenance && scenario.provenance.coverage >= 0.95,
          `${scenario.name}: provenance ${JSON.stringify(scenario.provenance)}`,
        );
      }
    }
  });

  test('the strongest model passes more tests than the cheapest, which costs less', () => {
    assert.ok(
      strongest.testsPassed > cheapest.testsPassed,
      `single-model ${strongest.testsPassed} vs cheapest-model ${cheapest.testsPassed}`,
    );
    assert.ok(cheapest.costUsd < strongest.costUsd, `cheapest $${cheapest.costUsd} vs single $${strongest.costUsd}`);
    assert.ok(strongest.costUsd <= scenarios.length * 1, 'no scenario can spend past its $1 cap');
  });
});
