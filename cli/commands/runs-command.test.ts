import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderRuns, runsQuery } from './runs-command.ts';

test('filters become a visibility query, values quoted and stripped of quotes', () => {
  assert.equal(runsQuery({}), `WorkflowType = 'evaluateSubmission'`);
  assert.equal(
    runsQuery({ status: 'incomplete', hotkey: "5F'x", pack: 'abc', since: '2026-12-01' }),
    `WorkflowType = 'evaluateSubmission' AND TrlStatus = 'incomplete' AND TrlHotkey = '5Fx' AND TrlPackHash STARTS_WITH 'abc' AND StartTime >= '2026-12-01T00:00:00.000Z'`,
  );
  assert.match(runsQuery({ pack: 'a'.repeat(64) }), /TrlPackHash = 'a{64}'/);
  assert.throws(() => runsQuery({ since: 'yesterday-ish' }), /--since must be a date/);
});

test('the table shows tests and cost when the run finished, dashes before', () => {
  const text = renderRuns([
    {
      workflowId: 'evaluate-a',
      startedAt: '2026-12-01T10:00:00.123Z',
      packHash: 'f'.repeat(64),
      status: 'completed',
      testsPassed: 30,
      testsTotal: 33,
      costUsd: 0.07,
    },
    { workflowId: 'evaluate-b', startedAt: '2026-12-01T11:00:00.000Z', status: 'running' },
  ]);
  assert.match(text, /evaluate-a\s+2026-12-01T10:00:00Z\s+ffffffffffff…\s+—\s+completed\s+30\/33\s+0\.0700/);
  assert.match(text, /evaluate-b .* running\s+—\s+—/);
  assert.equal(renderRuns([]), 'no evaluations match');
});
