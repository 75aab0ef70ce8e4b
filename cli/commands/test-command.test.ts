import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { repoRoot } from '../../common/data-layout.ts';
import { selectTestFiles, testConcurrency } from './test-command.ts';

const files = [
  'gateway/meter.test.ts',
  'test/faults/worker-sigkill.test.ts',
  'test/integration/worker-crash.test.ts',
  'test/faultsy/x.test.ts',
].map((f) => path.join(repoRoot, f));
const relative = (list: string[]) => list.map((f) => path.relative(repoRoot, f));

test('plain `trl test` skips test/faults/; --faults runs only it', () => {
  assert.deepEqual(relative(selectTestFiles(files, false)), [
    'gateway/meter.test.ts',
    'test/integration/worker-crash.test.ts',
    'test/faultsy/x.test.ts',
  ]);
  assert.deepEqual(relative(selectTestFiles(files, true)), ['test/faults/worker-sigkill.test.ts']);
});

test('test/topology/ runs only with --topology, and then alone', () => {
  const withTopology = [...files, path.join(repoRoot, 'test/topology/production-topology.test.ts')];
  assert.ok(!relative(selectTestFiles(withTopology, false)).some((f) => f.startsWith('test/topology/')));
  assert.ok(!relative(selectTestFiles(withTopology, true)).some((f) => f.startsWith('test/topology/')));
  assert.deepEqual(relative(selectTestFiles(withTopology, false, true, true)), [
    'test/topology/production-topology.test.ts',
  ]);
});

test('test files run three at a time unless TRL_TEST_CONCURRENCY says otherwise; a bad value names the variable', () => {
  assert.equal(testConcurrency({}), 4);
  assert.equal(testConcurrency({ TRL_TEST_CONCURRENCY: '1' }), 1);
  assert.throws(
    () => testConcurrency({ TRL_TEST_CONCURRENCY: 'many' }),
    /TRL_TEST_CONCURRENCY must be a whole number from 1 to 16/,
  );
  assert.throws(() => testConcurrency({ TRL_TEST_CONCURRENCY: '0' }), /TRL_TEST_CONCURRENCY/);
});

test('test/real-model/ runs only with --real-model, and then alone', () => {
  const withRealModel = [...files, path.join(repoRoot, 'test/real-model/gateway-conformance.test.ts')];
  for (const faults of [false, true])
    assert.ok(!relative(selectTestFiles(withRealModel, faults)).some((f) => f.startsWith('test/real-model/')));
  assert.deepEqual(relative(selectTestFiles(withRealModel, false, false, false, true)), [
    'test/real-model/gateway-conformance.test.ts',
  ]);
});
