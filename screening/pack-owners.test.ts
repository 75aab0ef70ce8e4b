import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PackOwners } from './pack-owners.ts';

test('the first committer of a hash owns it; later claims see the owner', async () => {
  const owners = new PackOwners(await mkdtemp(path.join(os.tmpdir(), 'trl-owners-')));
  const hash = 'a'.repeat(64);
  assert.equal((await owners.claim(hash, '5Alice', '2026-01-01T00:00:00Z')).hotkey, '5Alice');
  assert.equal((await owners.claim(hash, '5Bob', '2026-01-02T00:00:00Z')).hotkey, '5Alice');
  assert.equal((await owners.ownerOf(hash))?.hotkey, '5Alice');
});

test('concurrent claims: exactly one wins', async () => {
  const owners = new PackOwners(await mkdtemp(path.join(os.tmpdir(), 'trl-owners-')));
  const hash = 'b'.repeat(64);
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) => owners.claim(hash, `5Key${i}`, 'now')));
  assert.equal(new Set(results.map((r) => r.hotkey)).size, 1);
});

test('a supersedable claim (a local run from before local runs stopped claiming) gives way to a hotkey once', async () => {
  const owners = new PackOwners(await mkdtemp(path.join(os.tmpdir(), 'trl-owners-')));
  const hash = 'c'.repeat(64);
  await owners.claim(hash, 'local', '2026-01-01T00:00:00Z');
  assert.equal(
    (await owners.claim(hash, '5Miner', '2026-01-02T00:00:00Z', { supersedable: ['local'] })).hotkey,
    '5Miner',
  );
  assert.equal(
    (await owners.claim(hash, '5Other', '2026-01-03T00:00:00Z', { supersedable: ['local'] })).hotkey,
    '5Miner',
  );
  assert.equal(
    (await owners.claim(hash, 'local', '2026-01-04T00:00:00Z', { supersedable: ['local'] })).hotkey,
    '5Miner',
  );
});
