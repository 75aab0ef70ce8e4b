import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { blameOf, blameTable, scenarioStatusOf } from './blame.ts';
import {
  chainErrorKinds,
  chainFailureType,
  failureTypes,
  packFailureTypes,
  packFaultTypes,
  upstreamUnavailableType,
  verifierFailureTypes,
} from './failure-types.ts';
import { scenarioStatuses } from './results.ts';
import { upstreamInfrastructureErrorTypes } from '../gateway/gateway-error.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');

test('every failure type and every scenario status has exactly one row', () => {
  const types = [
    ...Object.values(packFailureTypes),
    ...Object.values(packFaultTypes),
    ...Object.values(verifierFailureTypes),
    ...Object.values(failureTypes),
    upstreamUnavailableType,
    ...chainErrorKinds.map(chainFailureType),
  ];
  for (const type of types) assert.ok(blameOf('failure_type', type), `no blame row for failure type ${type}`);
  for (const status of scenarioStatuses)
    assert.ok(blameOf('scenario_status', status), `no blame row for scenario status ${status}`);
  const keys = blameTable.map((entry) => `${entry.source}:${entry.cause}`);
  assert.equal(new Set(keys).size, keys.length, 'a cause listed twice');
});

test("upstream failures the gateway counts are the infrastructure's in the table, and only those gateway errors", () => {
  for (const entry of blameTable.filter((e) => e.source === 'gateway_error')) {
    assert.equal(
      entry.blame === 'infrastructure',
      upstreamInfrastructureErrorTypes.has(entry.cause as never),
      entry.cause,
    );
  }
  for (const type of upstreamInfrastructureErrorTypes)
    assert.equal(blameOf('gateway_error', type)?.blame, 'infrastructure', type);
});

test("infrastructure never scores; the policy's and the agent's always do (or reject the pack), outside engineer-only runs", () => {
  for (const entry of blameTable) {
    if (entry.blame === 'infrastructure' || entry.blame === 'task')
      assert.notEqual(entry.consequence, 'scored', entry.cause);
    else
      assert.ok(
        entry.consequence === 'scored' ||
          entry.consequence === 'rejected' ||
          (entry.consequence === 'outside_evaluation' && entry.cause === failureTypes.tapeDiverged),
        entry.cause,
      );
  }
});

test('every proof names a test file that exists and a title found in it', () => {
  for (const entry of blameTable) {
    const [file, title] = entry.proof.split(' — ');
    assert.ok(file && title, entry.proof);
    const full = path.join(repoRoot, file);
    assert.ok(existsSync(full), `${entry.cause}: ${file} does not exist`);
    const text = readFileSync(full, 'utf8').replaceAll("\\'", "'");
    assert.ok(text.includes(title.slice(0, 60)), `${entry.cause}: "${title}" is not a test title in ${file}`);
  }
});

const verified = (testsPassed: number, testsTotal = 5) => ({ testsPassed, testsTotal });
const run = (
  policy: { faults?: number; budgetRefusals?: number; upstreamFailures?: number } = {},
  outcome: 'completed' | 'agent_timeout' | 'agent_error' = 'completed',
) => ({
  outcome,
  policy: {
    faults: Array.from({ length: policy.faults ?? 0 }, () => ({})),
    budgetRefusals: policy.budgetRefusals ?? 0,
    upstreamFailures: policy.upstreamFailures,
  },
});

test('the scenario status follows the table', () => {
  assert.equal(scenarioStatusOf(run(), verified(3)).status, 'completed');
  assert.equal(
    scenarioStatusOf({ outcome: 'completed' }, verified(3)).status,
    'completed',
    'agents without a policy (oracle, null)',
  );
  assert.equal(scenarioStatusOf(run({}, 'agent_timeout'), verified(1)).status, 'agent_timeout');
  assert.equal(scenarioStatusOf(run({ faults: 1 }), verified(0)).status, 'policy_error');
  assert.equal(scenarioStatusOf(run({ budgetRefusals: 2 }), verified(2)).status, 'budget_exhausted');
  assert.equal(
    scenarioStatusOf(run({ faults: 1, budgetRefusals: 2 }, 'agent_timeout'), verified(0)).status,
    'policy_error',
  );
  // An outage that reached the policy, which then failed: the infrastructure's, not a zero.
  const storm = scenarioStatusOf(run({ faults: 3, upstreamFailures: 3 }), verified(0));
  assert.equal(storm.status, 'infra_error');
  assert.match(storm.reason!, /3 model calls failed upstream/);
  assert.equal(scenarioStatusOf(run({ upstreamFailures: 1 }, 'agent_timeout'), verified(4)).status, 'infra_error');
  assert.equal(scenarioStatusOf(run({ upstreamFailures: 1 }), verified(4)).status, 'infra_error');
  // The policy handled the outage and every test passed: the outcome was not affected.
  assert.equal(scenarioStatusOf(run({ upstreamFailures: 2 }), verified(5)).status, 'completed');
});

test('a pack fault scores the scenario 0 and never makes it incomplete', () => {
  for (const type of Object.values(packFaultTypes)) {
    const entry = blameOf('failure_type', type)!;
    assert.equal(entry.blame, 'policy');
    assert.equal(entry.consequence, 'scored');
  }
});

test('a policy that authors what the agent receives is a provenance violation, scored 0', () => {
  const provenance = (coverage: number, units = 400) => ({
    coverage,
    units,
    coveredUnits: Math.round(coverage * units),
    turns: 9,
    uncovered: ['print(42) > /app/answer.txt'],
  });
  const authored = {
    outcome: 'completed' as const,
    policy: { faults: [], budgetRefusals: 0, provenance: provenance(0.31) },
  };
  const blamed = scenarioStatusOf(authored, verified(5));
  assert.equal(blamed.status, 'provenance_violation', 'even with every test passed');
  assert.match(blamed.reason!, /31\.0% .*print\(42\)/);
  assert.equal(
    scenarioStatusOf({ ...authored, policy: { ...authored.policy, faults: [{}] } }, verified(0)).status,
    'provenance_violation',
    'authoring outranks a fault',
  );
  assert.equal(
    scenarioStatusOf({ ...authored, policy: { ...authored.policy, provenance: provenance(0.97) } }, verified(5)).status,
    'completed',
  );
  assert.equal(
    scenarioStatusOf({ ...authored, policy: { ...authored.policy, provenance: provenance(0, 4) } }, verified(5)).status,
    'completed',
    'too little to judge',
  );
  assert.equal(blameOf('scenario_status', 'provenance_violation')?.consequence, 'scored');
});
