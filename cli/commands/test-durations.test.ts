import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  addTopLevelDuration,
  orderTestFiles,
  readTestDurations,
  recordTestDurations,
  type TestDurations,
} from './test-durations.ts';

test('new integration suites first, then known files longest first, then the other new files, each in path order', () => {
  const files = [
    'a/unit.test.ts',
    'test/integration/b.test.ts',
    'test/integration/a.test.ts',
    'z/slow.test.ts',
    'm/quick.test.ts',
    'test/integration/known.test.ts',
  ];
  const durations = {
    'z/slow.test.ts': 200,
    'm/quick.test.ts': 1,
    'gone/file.test.ts': 500,
    'test/integration/known.test.ts': 50,
  };
  assert.deepEqual(orderTestFiles(files, durations), [
    'test/integration/b.test.ts',
    'test/integration/a.test.ts',
    'z/slow.test.ts',
    'test/integration/known.test.ts',
    'm/quick.test.ts',
    'a/unit.test.ts',
  ]);
  assert.deepEqual(orderTestFiles(files, {}), [
    'test/integration/b.test.ts',
    'test/integration/a.test.ts',
    'test/integration/known.test.ts',
    'a/unit.test.ts',
    'z/slow.test.ts',
    'm/quick.test.ts',
  ]);
});

test('a missing, unparsable or foreign durations file is no durations, not an error', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-durations-'));
  assert.deepEqual(await readTestDurations(path.join(dir, 'none.json')), {});
  await writeFile(path.join(dir, 'bad.json'), '{ not json');
  assert.deepEqual(await readTestDurations(path.join(dir, 'bad.json')), {});
  await writeFile(path.join(dir, 'foreign.json'), JSON.stringify({ 'a.test.ts': 'slow' }));
  assert.deepEqual(await readTestDurations(path.join(dir, 'foreign.json')), {});
});

test('a run records its files rounded to a tenth and keeps the figures of files it did not run, while they exist', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'trl-durations-'));
  const file = path.join(root, 'cache', 'durations.json');
  for (const name of ['a.test.ts', 'b.test.ts', 'gone.test.ts']) await writeFile(path.join(root, name), '');
  await recordTestDurations(file, { 'a.test.ts': 3.04, 'b.test.ts': 4, 'gone.test.ts': 2 }, root);
  await rm(path.join(root, 'gone.test.ts'));
  assert.deepEqual(await recordTestDurations(file, { 'b.test.ts': 9 }, root), { 'a.test.ts': 3, 'b.test.ts': 9 });
  assert.deepEqual(await readTestDurations(file), { 'a.test.ts': 3, 'b.test.ts': 9 });
  await rm(root, { recursive: true, force: true });
});

test("a file's duration sums its top-level tests and suites, passed or failed; nested ones are not counted twice", () => {
  const seconds: TestDurations = {};
  const root = '/repo';
  for (const data of [
    { nesting: 0, file: '/repo/x.test.ts', details: { duration_ms: 1500 } },
    { nesting: 1, file: '/repo/x.test.ts', details: { duration_ms: 1400 } },
    { nesting: 0, file: '/repo/x.test.ts', details: { duration_ms: 500 } },
    { nesting: 0, file: '/repo/y/z.test.ts', details: { duration_ms: 250 } },
    { nesting: 0, details: { duration_ms: 90 } },
    { nesting: 0, file: '/repo/w.test.ts' },
  ])
    addTopLevelDuration(seconds, data, root);
  assert.deepEqual(seconds, { 'x.test.ts': 2, 'y/z.test.ts': 0.25 });
});
