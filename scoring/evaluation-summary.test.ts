import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summarizeEvaluation } from './evaluation-summary.ts';
import type { ScenarioResult } from '../contracts/results.ts';

const scenario = (name: string, over: Partial<ScenarioResult> = {}): ScenarioResult => ({
  name,
  status: 'completed',
  testsPassed: 3,
  testsTotal: 5,
  costUsd: 0.1,
  agentWallMs: 10,
  verifierWallMs: 5,
  artifacts: {},
  ...over,
});

test('totals sum the scenarios, sorted by name', () => {
  const result = summarizeEvaluation({
    submissionId: 's',
    workflowId: 'w',
    agent: 'oracle',
    perScenario: [scenario('b'), scenario('a', { testsPassed: 5, costUsd: 0.2 })],
  });
  assert.equal(result.status, 'completed');
  assert.deepEqual([result.testsPassed, result.testsTotal, result.costUsd], [8, 10, 0.3]);
  assert.deepEqual(
    result.perScenario.map((s) => s.name),
    ['a', 'b'],
  );
});

test('an infrastructure error makes the evaluation incomplete; agent timeouts do not', () => {
  assert.equal(
    summarizeEvaluation({
      submissionId: 's',
      workflowId: 'w',
      agent: 'x',
      perScenario: [scenario('a', { status: 'agent_timeout' })],
    }).status,
    'completed',
  );
  assert.equal(
    summarizeEvaluation({
      submissionId: 's',
      workflowId: 'w',
      agent: 'x',
      perScenario: [scenario('a'), scenario('b', { status: 'infra_error' })],
    }).status,
    'incomplete',
  );
});

test('a rejection wins over everything', () => {
  const result = summarizeEvaluation({
    submissionId: 's',
    workflowId: 'w',
    agent: 'x',
    rejection: [{ code: 'manifest_invalid', message: 'm' }],
    perScenario: [],
  });
  assert.equal(result.status, 'rejected');
  assert.equal(result.testsPassed, 0);
});

test('a scenario a spend ceiling kept from running makes the evaluation incomplete, with the reason', () => {
  const result = summarizeEvaluation({
    submissionId: 's',
    workflowId: 'w',
    agent: 'loop',
    stoppedReason: 'per-submission spend ceiling reached',
    perScenario: [
      scenario('a'),
      scenario('b', { status: 'ceiling_reached', testsPassed: 0, testsTotal: 0, costUsd: 0 }),
    ],
  });
  assert.equal(result.status, 'incomplete');
  assert.equal(result.stoppedReason, 'per-submission spend ceiling reached');
  assert.equal(
    summarizeEvaluation({ submissionId: 's', workflowId: 'w', agent: 'x', perScenario: [scenario('a')] }).stoppedReason,
    undefined,
  );
});
