import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EvaluationResult, ScenarioResult } from '../../contracts/results.ts';
import { comparablePoint } from './reference-runs.ts';

function scenario(
  name: string,
  testsPassed: number,
  costUsd: number,
  status: ScenarioResult['status'] = 'completed',
): ScenarioResult {
  return { name, status, testsPassed, testsTotal: 10, costUsd, agentWallMs: 1000, verifierWallMs: 500, artifacts: {} };
}

function run(workflowId: string, packHash: string, perScenario: ScenarioResult[], agent = 'hermes'): EvaluationResult {
  return {
    submissionId: workflowId,
    workflowId,
    status: 'completed',
    packHash,
    agent,
    testsPassed: 0,
    testsTotal: 0,
    costUsd: 0,
    perScenario,
  };
}

const reported = run('evaluate-a', 'p1', [
  scenario('csv-sales-report', 7, 0.01),
  scenario('fix-inventory-bug', 5, 0.02),
]);

test('a reference counts only the reported scenarios, so the points compare like with like', () => {
  const candidate = run('evaluate-b', 'p2', [
    scenario('csv-sales-report', 4, 0.001),
    scenario('fix-inventory-bug', 3, 0.002),
    scenario('sqlite-orders-analytics', 9, 0.5),
  ]);
  assert.deepEqual(comparablePoint(reported, candidate, 'cheapest pin'), {
    label: 'cheapest pin',
    workflowId: 'evaluate-b',
    testsPassed: 7,
    testsTotal: 20,
    costUsd: 0.003,
  });
});

test('no reference from the run itself, the same pack, another agent, a missing or unresolved scenario', () => {
  const both = [scenario('csv-sales-report', 4, 0.001), scenario('fix-inventory-bug', 3, 0.002)];
  assert.equal(comparablePoint(reported, reported, 'x'), undefined);
  assert.equal(comparablePoint(reported, run('evaluate-c', 'p1', both), 'x'), undefined);
  assert.equal(comparablePoint(reported, run('evaluate-d', 'p2', both, 'loop'), 'x'), undefined);
  assert.equal(comparablePoint(reported, run('evaluate-e', 'p2', both.slice(0, 1)), 'x'), undefined);
  assert.equal(
    comparablePoint(
      reported,
      run('evaluate-f', 'p2', [both[0]!, scenario('fix-inventory-bug', 0, 0, 'infra_error')]),
      'x',
    ),
    undefined,
  );
  assert.ok(comparablePoint(reported, run('evaluate-g', 'p2', both), 'x'));
});
