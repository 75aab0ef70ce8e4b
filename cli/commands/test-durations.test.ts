import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../common/data-layout.ts';
import { orderTestFiles, readTestDurations, recordTestDurations, runDurationsFileEnv } from './test-durations.ts';

type Reporter = (source: AsyncIterable<unknown>) => AsyncGenerator<string>;
const reporterFile = path.join(import.meta.dirname, 'test-durations-reporter.mjs');

test('known files go longest first, then unknown integration suites, then the rest, each in path order', () => {
  const files = ['a/unit.test.ts', 'test/integration/b.test.ts', 'test/integration/a.test.ts', 'z/slow.test.ts', 'm/quick.test.ts'];
  const durations = { 'z/slow.test.ts': 200, 'm/quick.test.ts': 1, 'gone/file.test.ts': 500 };
  assert.deepEqual(orderTestFiles(files, durations), ['z/slow.test.ts', 'm/quick.test.ts', 'test/integration/b.test.ts', 'test/integration/a.test.ts', 'a/unit.test.ts']);
  assert.deepEqual(orderTestFiles(files, {}), ['test/integration/b.test.ts', 'test/integration/a.test.ts', 'a/unit.test.ts', 'z/slow.test.ts', 'm/quick.test.ts']);
});

test('a missing, unparsable or foreign durations file is no durations, not an error', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-durations-'));
  assert.deepEqual(await readTestDurations(path.join(dir, 'none.json')), {});
  await writeFile(path.join(dir, 'bad.json'), '{ not json');
  assert.deepEqual(await readTestDurations(path.join(dir, 'bad.json')), {});
  await writeFile(path.join(dir, 'foreign.json'), JSON.stringify({ 'a.test.ts': 'slow' }));
  assert.deepEqual(await readTestDurations(path.join(dir, 'foreign.json')), {});
});

test('a run records its files by relative path, rounded, and keeps the figures of files it did not run', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-durations-'));
  const file = path.join(dir, 'cache', 'durations.json');
  const run = path.join(dir, 'run.json');
  await writeFile(run, JSON.stringify({ '/repo/a.test.ts': 3.04, '/repo/b.test.ts': 4 }));
  await recordTestDurations(file, run, '/repo');
  await writeFile(run, JSON.stringify({ '/repo/b.test.ts': 9 }));
  assert.deepEqual(await recordTestDurations(file, run, '/repo'), { 'a.test.ts': 3, 'b.test.ts': 9 });
  assert.deepEqual(await readTestDurations(file), { 'a.test.ts': 3, 'b.test.ts': 9 });
  await recordTestDurations(file, path.join(dir, 'no-run.json'), '/repo');
  assert.deepEqual(await readTestDurations(file), { 'a.test.ts': 3, 'b.test.ts': 9 }, 'a run that wrote nothing (it crashed) loses nothing');
});

test('the reporter sums each file\'s top-level tests and suites, nested ones not twice, and prints nothing', async () => {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'trl-durations-')), 'durations.json');
  const testDurationsReporter = ((await import(reporterFile)) as { default: Reporter }).default;
  const at = (name: string) => path.join(repoRoot, name);
  const events = [
    { type: 'test:pass', data: { nesting: 0, file: at('x.test.ts'), details: { duration_ms: 1500 } } },
    { type: 'test:pass', data: { nesting: 1, file: at('x.test.ts'), details: { duration_ms: 1400 } } },
    { type: 'test:fail', data: { nesting: 0, file: at('x.test.ts'), details: { duration_ms: 500 } } },
    { type: 'test:pass', data: { nesting: 0, file: at('y/z.test.ts'), details: { duration_ms: 250 } } },
    { type: 'test:diagnostic', data: { nesting: 0 } },
  ];
  async function* source() { yield* events; }
  const previous = process.env[runDurationsFileEnv];
  process.env[runDurationsFileEnv] = file;
  try {
    const printed: string[] = [];
    for await (const line of testDurationsReporter(source())) printed.push(line);
    assert.deepEqual(printed, []);
  } finally {
    if (previous === undefined) delete process.env[runDurationsFileEnv];
    else process.env[runDurationsFileEnv] = previous;
  }
  assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), { [at('x.test.ts')]: 2, [at('y/z.test.ts')]: 0.25 });
});
