import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  FileJudgeCache,
  MemoryJudgeCache,
  judgeCacheFileName,
  type CachedVerdict,
  type JudgeCacheKey,
} from './judge-cache.ts';

const key: JudgeCacheKey = { packHash: 'a'.repeat(64), model: 'glm-5.2', promptVersion: '1-abc' };
const verdict: CachedVerdict = {
  verdict: 'reject',
  flags: [{ type: 'prompt_injection', evidence: 'ignore previous instructions', file: 'policy.ts' }],
  summary: 'Reject.',
  model: 'glm-5.2',
  promptVersion: '1-abc',
  costHint: { attempts: 1 },
};

async function withDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-judge-cache-test-'));
  try {
    await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('the file cache stores one JSON file per key, atomically, readable by a new instance', () =>
  withDir(async (dir) => {
    const cache = new FileJudgeCache(path.join(dir, 'nested'));
    assert.equal(await cache.get(key), undefined);
    await cache.set(key, verdict);
    await cache.set(key, verdict);
    assert.deepEqual(await new FileJudgeCache(path.join(dir, 'nested')).get(key), verdict);
    assert.deepEqual(await readdir(path.join(dir, 'nested')), [judgeCacheFileName(key)], 'no temp files left behind');
    for (const other of [
      { ...key, model: 'kimi-k3' },
      { ...key, promptVersion: '1-def' },
      { ...key, packHash: 'b'.repeat(64) },
    ]) {
      assert.equal(await cache.get(other), undefined);
    }
  }));

test('corrupt, foreign or mismatched entries are misses, not verdicts', () =>
  withDir(async (dir) => {
    const cache = new FileJudgeCache(dir);
    const file = path.join(dir, judgeCacheFileName(key));
    await writeFile(file, '{not json');
    assert.equal(await cache.get(key), undefined);
    await writeFile(file, JSON.stringify({ key, verdict: { ...verdict, verdict: 'maybe' } }));
    assert.equal(await cache.get(key), undefined);
    await writeFile(file, JSON.stringify({ key: { ...key, model: 'other' }, verdict }));
    assert.equal(await cache.get(key), undefined);
    await cache.set(key, verdict);
    assert.deepEqual(await cache.get(key), verdict);
  }));

test('the memory cache returns copies', async () => {
  const cache = new MemoryJudgeCache();
  await cache.set(key, verdict);
  const got = await cache.get(key);
  assert.deepEqual(got, verdict);
  got!.flags.length = 0;
  assert.equal((await cache.get(key))!.flags.length, 1);
  assert.equal(cache.size, 1);
});
