import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { reusedLogLine, VerifierCache, type VerifierCacheKey } from './verifier-cache.ts';
import type { VerifierRun } from './run-verifier.ts';

async function scenarioWithTests(root: string, name: string, body: string): Promise<string> {
  const dir = path.join(root, name);
  await mkdir(path.join(dir, 'tests'), { recursive: true });
  await writeFile(path.join(dir, 'tests', 'test.sh'), body);
  return dir;
}

const run: VerifierRun = {
  counts: {
    testsPassed: 2,
    testsFailed: 1,
    testsTotal: 3,
    source: 'ctrf',
    tests: [],
  } as unknown as VerifierRun['counts'],
  reportName: 'ctrf.json',
  reportText: '{"results":{}}',
  notes: [],
  log: 'pytest: 2 passed, 1 failed',
  wallMs: 1200,
};

test('a result is found again only for the same outputs, tests, image and settings', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'verifier-cache-'));
  const scenarioDir = await scenarioWithTests(root, 'a', 'pytest\n');
  const twin = await scenarioWithTests(root, 'b', 'pytest\n');
  const changed = await scenarioWithTests(root, 'c', 'pytest -x\n');
  const cache = new VerifierCache(path.join(root, 'cache'));
  const base: VerifierCacheKey = {
    outputsSha256: 'a'.repeat(64),
    scenarioDir,
    image: 'trl-scenario-a:0123456789ab',
    timeoutSec: 60,
    declaredTests: 3,
    env: { B: '2', A: '1' },
  };
  const key = await cache.keyOf(base);
  assert.equal(await cache.get(key), undefined);
  await cache.put(key, run);

  const again = await cache.get(await cache.keyOf({ ...base, env: { A: '1', B: '2' } }));
  assert.deepEqual(again?.counts, run.counts);
  assert.equal(again?.reportText, run.reportText);
  assert.ok(again?.log.endsWith(`${reusedLogLine}\n`), again?.log);
  assert.equal(cache.hits, 1);
  // The same tests in another folder are the same tests.
  assert.equal(await cache.keyOf({ ...base, scenarioDir: twin }), key);

  const others: VerifierCacheKey[] = [
    { ...base, outputsSha256: 'b'.repeat(64) },
    { ...base, scenarioDir: changed },
    { ...base, image: 'trl-scenario-a:ba9876543210' },
    { ...base, timeoutSec: 61 },
    { ...base, declaredTests: 4 },
    { ...base, user: 'tester' },
    { ...base, env: { A: '1' } },
  ];
  for (const other of others) {
    const otherKey = await cache.keyOf(other);
    assert.notEqual(otherKey, key, JSON.stringify(other));
    assert.equal(await cache.get(otherKey), undefined);
  }
  // Written whole under its key: no temporary file is left behind.
  assert.deepEqual(await readdir(path.join(root, 'cache')), [`${key}.json`]);
});
