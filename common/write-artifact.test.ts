import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeArtifact } from './write-artifact.ts';

test('an in-place file is described by its real hash and size; a missing one is the empty artifact', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'trl-artifact-'));
  try {
    await writeFile(path.join(dir, 'log'), 'abc');
    const ref = await describeArtifact(path.join(dir, 'log'));
    assert.equal(ref.sizeBytes, 3);
    assert.equal(ref.sha256, createHash('sha256').update('abc').digest('hex'));
    assert.equal((await describeArtifact(path.join(dir, 'missing'))).sizeBytes, 0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a file past 2 GiB (sparse) is hashed by streaming, not as empty', { timeout: 120_000 }, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'trl-artifact-'));
  try {
    const file = path.join(dir, 'big.log');
    const handle = await open(file, 'w');
    const size = 2 ** 31 + 1;
    await handle.truncate(size); // sparse: no disk used
    await handle.close();
    const ref = await describeArtifact(file);
    assert.equal(ref.sizeBytes, size);
    assert.notEqual(ref.sha256, createHash('sha256').digest('hex'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
