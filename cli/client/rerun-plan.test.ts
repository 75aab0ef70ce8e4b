import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EvaluationResult, ScenarioResult } from '../../contracts/results.ts';
import type { Submission } from '../../contracts/submission.ts';
import { planRerun, planRescore, rerunSubmissionId } from './rerun-plan.ts';

const scenario = (
  name: string,
  status: ScenarioResult['status'],
  extra: Partial<ScenarioResult> = {},
): ScenarioResult => ({
  name,
  status,
  testsPassed: status === 'completed' ? 2 : 0,
  testsTotal: 2,
  costUsd: 0.01,
  agentWallMs: 1,
  verifierWallMs: 1,
  artifacts: {},
  scenarioHash: `hash-${name}`,
  ...extra,
});
const submission: Submission = {
  submissionId: 'local-1',
  pack: { kind: 'directory', path: '/p' },
  agent: 'hermes',
  scenarios: [],
  seed: 7,
};
const result: EvaluationResult = {
  submissionId: 'local-1',
  workflowId: 'evaluate-local-1',
  status: 'incomplete',
  packHash: 'pack',
  scenarioSpec: 4,
  agent: 'hermes',
  testsPassed: 4,
  testsTotal: 10,
  costUsd: 0.05,
  perScenario: [
    scenario('a', 'completed'),
    scenario('b', 'infra_error'),
    scenario('c', 'ceiling_reached'),
    scenario('d', 'policy_error'),
    scenario('e', 'completed', { scenarioHash: undefined }),
    scenario('f', 'completed', { reusedFrom: 'evaluate-local-0' }),
  ],
};
const original = { workflowId: 'evaluate-local-1', submission, result };

test('--failed runs the infra_error and ceiling_reached scenarios and offers the rest, keyed', () => {
  const plan = planRerun(original, { scenarios: [], failed: true }, 'local-1-rerun-x');
  assert.deepEqual(plan.run, ['b', 'c', 'e']);
  assert.deepEqual(plan.reused, ['a', 'd', 'f']);
  assert.deepEqual(plan.noHash, ['e']);
  const offered = plan.input.reuse ?? [];
  assert.deepEqual(offered[0]?.key, { packHash: 'pack', scenarioHash: 'hash-a', spec: 4, seed: 7, agent: 'hermes' });
  assert.equal(offered[2]?.from, 'evaluate-local-0', 'a result reused before keeps naming the run that produced it');
  assert.equal('reusedFrom' in (offered[2]?.result ?? {}), false);
  assert.equal(plan.input.rerunOf, 'evaluate-local-1');
  assert.equal(plan.input.seed, 7);
});

test('--scenario runs the named ones (and never reuses an unresolved one)', () => {
  const plan = planRerun(original, { scenarios: ['a'], failed: false }, 'x');
  assert.deepEqual(plan.run, ['a', 'b', 'c', 'e']);
});

test('bad choices are usage errors', () => {
  assert.throws(() => planRerun(original, { scenarios: [], failed: false }, 'x'), /needs --failed or --scenario/);
  assert.throws(() => planRerun(original, { scenarios: ['zz'], failed: false }, 'x'), /has no scenario "zz"/);
  const clean = { ...original, result: { ...result, perScenario: [scenario('a', 'completed')] } };
  assert.throws(() => planRerun(clean, { scenarios: [], failed: true }, 'x'), /nothing to rerun/);
  assert.throws(
    () =>
      planRerun({ ...original, result: { ...result, status: 'rejected' } }, { scenarios: ['a'], failed: false }, 'x'),
    /rejected/,
  );
});

test('rerun ids stay valid and do not pile up suffixes', () => {
  const now = new Date('2026-12-01T10:00:00Z');
  assert.equal(rerunSubmissionId('local-1', now, 'abc123'), 'local-1-rerun-20261201T100000-abc123');
  assert.equal(
    rerunSubmissionId('local-1-rerun-20261130T090000-ffffff', now, 'abc123'),
    'local-1-rerun-20261201T100000-abc123',
  );
  assert.ok(rerunSubmissionId('x'.repeat(128), now, 'abc123').length <= 128);
});

test('a rescore verifies the chosen scenarios again, reuses the rest, and names what has no verdict', () => {
  const withOutputs = {
    ...original,
    result: {
      ...result,
      perScenario: result.perScenario.map((s) => ({
        ...s,
        artifacts: { agentOutputs: { path: `/o/${s.name}.tar`, sha256: '0'.repeat(64), sizeBytes: 1 } },
      })),
    },
  };
  const all = planRescore(withOutputs, [], 'x');
  assert.deepEqual(all.rescored, ['a', 'd', 'e', 'f']);
  assert.deepEqual(all.run, ['b', 'c']);
  const one = planRescore(withOutputs, ['a'], 'x');
  assert.deepEqual(one.rescored, ['a']);
  assert.deepEqual(one.reused, ['a', 'd', 'f']);
  assert.deepEqual(one.noHash, ['e']);
  assert.throws(() => planRescore(withOutputs, ['zz'], 'x'), /has no scenario "zz"/);
});
