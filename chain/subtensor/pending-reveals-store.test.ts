import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadPendingReveals, savePendingReveals, type PendingReveal } from './pending-reveals-store.ts';

const reveal: PendingReveal = {
  netuid: 11,
  hotkey: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY',
  uids: [5],
  values: [65535],
  salt: [1, 2, 3, 4, 5, 6, 7, 8],
  versionKey: 0,
  commitHash: `0x${'0'.repeat(64)}`,
  commitBlock: 1000,
  commitEpoch: 2,
  revealEpoch: 3,
  revealFromBlock: 1071,
  revealUntilBlock: 1431,
  epochSource: 'tempo',
  transaction: `0x${'1'.repeat(64)}`,
};

async function withDirectory(run: (directory: string) => Promise<void>): Promise<void> {
  const directory = await mkdtemp(path.join(tmpdir(), 'pending-reveals-'));
  try {
    await run(directory);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

test('a missing file is an empty list; saved reveals load back unchanged', () =>
  withDirectory(async (directory) => {
    const file = path.join(directory, 'nested', 'pending.json');
    assert.deepEqual(await loadPendingReveals(file), []);
    await savePendingReveals(file, [reveal]);
    assert.deepEqual(await loadPendingReveals(file), [reveal]);
    assert.deepEqual(await readdir(path.dirname(file)), ['pending.json'], 'no temporary file left behind');
  }));

test('saving replaces the file whole', () =>
  withDirectory(async (directory) => {
    const file = path.join(directory, 'pending.json');
    await savePendingReveals(file, [reveal, { ...reveal, commitBlock: 1001 }]);
    await savePendingReveals(file, []);
    assert.deepEqual(await loadPendingReveals(file), []);
  }));

test('a file of the wrong shape is refused with the fix, not silently emptied', () =>
  withDirectory(async (directory) => {
    const file = path.join(directory, 'pending.json');
    await writeFile(file, JSON.stringify({ version: 1, reveals: [{ netuid: 'eleven' }] }));
    await assert.rejects(loadPendingReveals(file), /does not match the expected shape.*move it aside/);
  }));
