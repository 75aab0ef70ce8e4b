import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCollectOutput } from './collect-tests.ts';

test('a clean collection sums the per-module counts of -qq', () => {
  assert.deepEqual(parseCollectOutput('test_a.py: 3\nsub/test_b.py: 4\n\n', 0), { count: 7 });
});

test('"no tests collected" (exit 5) is zero, not an error', () => {
  assert.deepEqual(parseCollectOutput('\n', 5), { count: 0 });
});

test('collection errors are not a count: the reason names the module', () => {
  const output =
    'test_a.py: 3\n==== ERRORS ====\nERROR ../tests/test_b.py\n!!!! Interrupted: 1 error during collection !!!!\n';
  const parsed = parseCollectOutput(output, 2);
  assert.ok('error' in parsed);
  assert.match(parsed.error, /exited 2: ERROR \.\.\/tests\/test_b\.py; !!!! Interrupted: 1 error during collection/);
});

test('a killed collection is an error', () => {
  assert.deepEqual(parseCollectOutput('', null), { error: 'pytest collection exited killed' });
});
