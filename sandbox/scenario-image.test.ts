import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scenarioImageRepository } from './scenario-image.ts';

// Docker's reference grammar: components of [a-z0-9]+ joined by `.`, `_`, `__` or a run of `-`.
const validRepository = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;

test('every scenario name gives a repository name Docker accepts; names already valid keep their form', () => {
  assert.equal(scenarioImageRepository('csv-sales-report'), 'trl-scenario-csv-sales-report');
  assert.equal(scenarioImageRepository('repo--task_name.v2'), 'trl-scenario-repo--task_name.v2');
  assert.equal(
    scenarioImageRepository('terminal-bench-ds-tasks--027.-tasks-query-optimize'),
    'trl-scenario-terminal-bench-ds-tasks--027-tasks-query-optimize',
  );
  for (const name of ['027.-x', 'a._b', 'A B/C', '-lead', 'trail.', '...', 'x___y', 'ü-ñ', 'a.-_.b'])
    assert.match(scenarioImageRepository(name), validRepository, name);
});
