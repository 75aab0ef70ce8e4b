import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LockTimeoutError, withFileLock } from './file-lock.ts';

const lockIn = async () => path.join(await mkdtemp(path.join(os.tmpdir(), 'trl-lock-')), '.lock');
const deadPid = () => spawnSync('true').pid!;

test('holders run one at a time and the lock is gone afterwards', async () => {
  const lock = await lockIn();
  let inside = 0;
  let most = 0;
  await Promise.all(
    Array.from({ length: 20 }, () =>
      withFileLock(lock, async () => {
        inside += 1;
        most = Math.max(most, inside);
        await new Promise((resolve) => setTimeout(resolve, 1));
        inside -= 1;
      }),
    ),
  );
  assert.equal(most, 1);
  assert.deepEqual(await readdir(path.dirname(lock)), []);
});

test('the lock is released when the holder throws', async () => {
  const lock = await lockIn();
  await assert.rejects(
    withFileLock(lock, async () => {
      throw new Error('boom');
    }),
    /boom/,
  );
  assert.equal(await withFileLock(lock, async () => 'again'), 'again');
});

test('a lock left by a dead process on this host is broken at once', async () => {
  const lock = await lockIn();
  await writeFile(lock, JSON.stringify({ host: os.hostname(), pid: deadPid(), token: 'x' }));
  // Not broken, it would be waited for until the timeout (well before it is old enough to be stale).
  assert.equal(await withFileLock(lock, async () => 'taken', { timeoutMs: 5_000 }), 'taken');
});

test('a live holder is waited for, then given up on; an old lock is stale whoever holds it', async () => {
  const lock = await lockIn();
  await writeFile(lock, JSON.stringify({ host: os.hostname(), pid: process.ppid, token: 'live' }));
  await assert.rejects(
    withFileLock(lock, async () => 'no', { timeoutMs: 200 }),
    LockTimeoutError,
  );
  const old = new Date(Date.now() - 60_000);
  await utimes(lock, old, old);
  assert.equal(await withFileLock(lock, async () => 'taken', { timeoutMs: 200, staleMs: 30_000 }), 'taken');
});

test('a lock that cannot be written (a full disk) is not left behind to block others', {
  skip: process.getuid?.() !== 0 && 'needs root to mount a tmpfs',
}, async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-lock-full-'));
  spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'trl-lock-full', dir]);
  try {
    spawnSync('dd', ['if=/dev/zero', `of=${path.join(dir, 'filler')}`, 'bs=4k']);
    await assert.rejects(
      withFileLock(path.join(dir, '.lock'), async () => 'never'),
      /ENOSPC/,
    );
    assert.deepEqual(await readdir(dir), ['filler']);
  } finally {
    spawnSync('umount', [dir]);
  }
});
