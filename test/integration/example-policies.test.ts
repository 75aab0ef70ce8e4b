// Every example policy, bundled into its sandbox, drives the built-in tool-loop agent through a real
// scenario on the sim fleet: Temporal, Docker, policy host, gateway, verifier — nothing faked.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '../../common/data-layout.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { startHarness, type Harness } from '../support/evaluation-harness.ts';

const examplesDir = path.join(repoRoot, 'policy', 'examples');

describe('example policies on the sim fleet', async () => {
  const examples = (await readdir(examplesDir, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  let harness: Harness;
  const results = new Map<string, EvaluationResult>();

  before(async () => {
    harness = await startHarness();
    for (let i = 0; i < examples.length; i += 2) {
      const batch = examples.slice(i, i + 2);
      const done = await Promise.all(
        batch.map((name) =>
          harness.evaluate({
            pack: { kind: 'directory', path: path.join(examplesDir, name) },
            agent: 'loop',
            scenarios: ['csv-sales-report'],
            seed: 1,
          }),
        ),
      );
      batch.forEach((name, j) => results.set(name, done[j]!));
    }
  });
  after(async () => harness?.close());

  test('there are at least six examples', () => {
    assert.ok(examples.length >= 6, examples.join(', '));
  });

  for (const name of [
    'single-model',
    'cheapest-model',
    'cost-cascade',
    'parallel-pick',
    'fallback-chain',
    'category-router',
  ]) {
    test(`${name} runs a scenario end to end (faults only from injected upstream errors), and its spend is logged`, () => {
      const result = results.get(name);
      assert.ok(result, `${name} did not run`);
      assert.equal(result.status, 'completed', JSON.stringify(result.rejection ?? result.perScenario[0]?.error));
      const scenario = result.perScenario[0]!;
      // Policies without a fallback may meet an injected 429/5xx of the sim fleet; nothing else is allowed.
      const upstreamOnly = (scenario.policyFaults ?? []).every((f) =>
        /rate limited|failed upstream|did not answer in time/.test(f.message),
      );
      assert.ok(scenario.status !== 'policy_error' || upstreamOnly, JSON.stringify(scenario.policyFaults));
      assert.ok(scenario.costUsd > 0 && scenario.costUsd <= 1, `cost ${scenario.costUsd}`);
      assert.ok(scenario.artifacts.modelCallLog && scenario.artifacts.modelCallLog.sizeBytes > 0);
      assert.ok(scenario.artifacts.turnLog);
      // An honest policy passes model output on: what the agent received came from model answers.
      assert.ok(
        scenario.provenance && scenario.provenance.units > 0 && scenario.provenance.coverage >= 0.95,
        JSON.stringify(scenario.provenance),
      );
    });
  }

  test('the cheapest-model policy spends less than the single strong model', () => {
    assert.ok(results.get('cheapest-model')!.costUsd < results.get('single-model')!.costUsd);
  });
});
