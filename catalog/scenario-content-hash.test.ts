import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { scenarioContentHash } from './scenario-content-hash.ts';

test('the hash follows every file of the folder, its name and its bytes', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-hash-'));
  try {
    await mkdir(path.join(dir, 'tests'));
    await writeFile(path.join(dir, 'task.toml'), 'a');
    await writeFile(path.join(dir, 'tests', 'test.sh'), 'b');
    const first = await scenarioContentHash(dir);
    assert.match(first, /^[0-9a-f]{64}$/);
    assert.equal(await scenarioContentHash(dir), first);
    await writeFile(path.join(dir, 'tests', 'test.sh'), 'c');
    const changed = await scenarioContentHash(dir);
    assert.notEqual(changed, first);
    await writeFile(path.join(dir, 'tests', 'extra.py'), '');
    assert.notEqual(await scenarioContentHash(dir), changed);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
