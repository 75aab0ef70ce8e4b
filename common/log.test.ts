import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asyncLocalStorage, Context } from '@temporalio/activity';
import { log, withLogFields } from './log.ts';

function captured(write: () => void): Record<string, unknown> {
  const original = process.stderr.write.bind(process.stderr);
  let line = '';
  process.stderr.write = ((chunk: string) => {
    line += chunk;
    return true;
  }) as typeof process.stderr.write;
  try {
    write();
  } finally {
    process.stderr.write = original;
  }
  return JSON.parse(line) as Record<string, unknown>;
}

test('a line written outside an activity has no activity ids', () => {
  const line = captured(() => log.error('plain', { scenario: 's' }));
  assert.equal(line.event, 'plain');
  assert.equal(line.scenario, 's');
  assert.equal(line.workflowId, undefined);
});

test('a line written inside an activity carries its workflow, run and activity ids', () => {
  const info = {
    workflowExecution: { workflowId: 'evaluate-x', runId: 'r1' },
    activityType: 'runScenario',
    activityId: '7',
    attempt: 2,
  };
  // The activity's context as the worker sets it; only `info` is read.
  const context = { info } as unknown as Context;
  const line = captured(() =>
    asyncLocalStorage.run(context, () => log.error('inside', { scenario: 'csv-sales-report' })),
  );
  assert.deepEqual(
    {
      workflowId: line.workflowId,
      runId: line.runId,
      activityType: line.activityType,
      activityId: line.activityId,
      attempt: line.attempt,
      scenario: line.scenario,
    },
    {
      workflowId: 'evaluate-x',
      runId: 'r1',
      activityType: 'runScenario',
      activityId: '7',
      attempt: 2,
      scenario: 'csv-sales-report',
    },
  );
});

test('withLogFields puts its fields on every line written inside it, across awaits', async () => {
  const lines: Record<string, unknown>[] = [];
  await withLogFields({ scenario: 'fix-inventory-bug' }, async () => {
    await new Promise((resolve) => setImmediate(resolve));
    lines.push(captured(() => log.error('later', { step: 1 })));
  });
  lines.push(captured(() => log.error('outside')));
  assert.equal(lines[0]!.scenario, 'fix-inventory-bug');
  assert.equal(lines[0]!.step, 1);
  assert.equal(lines[1]!.scenario, undefined);
});
