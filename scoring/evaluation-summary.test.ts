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

test('a task that does not load or build is task_invalid: not scored, the evaluation incomplete', async () => {
  const { ApplicationFailure } = await import('@temporalio/common');
  const { preparationFailed } = await import('../contracts/task-invalid.ts');
  const { evaluationExitCode } = await import('../cli/commands/eval-command.ts');
  const base = scenario('broken', { status: 'infra_error', testsPassed: 0, testsTotal: 0, costUsd: 0 });
  const invalid = preparationFailed(
    base,
    ApplicationFailure.create({
      type: 'scenario_invalid',
      message: 'scenario broken: missing tests/test.sh',
      nonRetryable: true,
      details: [{ category: 'sql', difficulty: 'hard', testsDeclared: 4 }],
    }),
  );
  assert.deepEqual(
    [invalid.status, invalid.category, invalid.difficulty, invalid.testsDeclared, invalid.testsTotal],
    ['task_invalid', 'sql', 'hard', 4, 0],
  );
  assert.match(invalid.error!, /^task: scenario broken: missing tests\/test\.sh/);
  const engine = preparationFailed(base, ApplicationFailure.create({ type: 'image_build_failed', message: 'daemon' }));
  assert.equal(engine.status, 'infra_error', "the engine's failure stays the infrastructure's");
  const result = summarizeEvaluation({
    submissionId: 's',
    workflowId: 'w',
    agent: 'oracle',
    perScenario: [scenario('ok'), invalid],
  });
  assert.equal(result.status, 'incomplete', 'so it can never move the seat');
  assert.deepEqual([result.testsPassed, result.testsTotal], [3, 5], 'the invalid task is not scored');
  assert.equal(evaluationExitCode(result), 3, 'something ran: not bad input');
  assert.equal(evaluationExitCode({ ...result, perScenario: [invalid] }), 64, 'nothing could run');
});
