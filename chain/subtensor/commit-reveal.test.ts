// Commit-reveal v2: the commit hash against an independent hand SCALE encoding and against the
// finney metadata's own tuple encoding; the tempo epoch schedule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blake2AsHex, decodeAddress } from '@polkadot/util-crypto';
import { finneyMetadataFile, requireChainTestFile } from './testing/chain-test-data.ts';
import {
  commitHash,
  encodeCommitPayload,
  epochIndex,
  firstBlockOfEpoch,
  randomSalt,
  revealState,
  revealWindow,
  type CommitPayload,
} from './commit-reveal.ts';
import { loadOfflineRuntime } from './testing/offline-metadata.ts';
import { hex, u16, u64, vector } from './testing/scale-by-hand.ts';

const payload: CommitPayload = {
  hotkey: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY',
  netuidIndex: 11,
  uids: [5, 17],
  values: [65535, 1000],
  salt: [1, 2, 3, 4, 5, 6, 7, 8],
  versionKey: 3,
};

test('the commit payload is SCALE(AccountId32, u16, Vec<u16>, Vec<u16>, Vec<u16>, u64), by hand', () => {
  const expected = [
    ...decodeAddress(payload.hotkey),
    ...u16(11),
    ...vector([u16(5), u16(17)]),
    ...vector([u16(65535), u16(1000)]),
    ...vector(payload.salt.map(u16)),
    ...u64(3),
  ];
  assert.equal(hex(encodeCommitPayload(payload)), hex(expected));
  assert.equal(commitHash(payload), blake2AsHex(Uint8Array.from(expected), 256));
});

test('the commit payload matches the metadata registry encoding of the same tuple', () => {
  const { registry } = loadOfflineRuntime(requireChainTestFile(finneyMetadataFile));
  const tuple = registry.createType('(AccountId32, u16, Vec<u16>, Vec<u16>, Vec<u16>, u64)', [
    payload.hotkey,
    payload.netuidIndex,
    payload.uids,
    payload.values,
    payload.salt,
    payload.versionKey,
  ]);
  assert.equal(hex(encodeCommitPayload(payload)), tuple.toHex());
});

test('the commit hash for a fixed input is pinned, and the salt changes it', () => {
  assert.equal(commitHash(payload), '0xbbf2eb1bdc843f5809b45fd4df629c2260286579a8c1ac3bd415c482a75c2c46');
  assert.notEqual(commitHash({ ...payload, salt: [1, 2, 3, 4, 5, 6, 7, 9] }), commitHash(payload));
});

test('salts are eight random u16 values', () => {
  const salt = randomSalt();
  assert.equal(salt.length, 8);
  assert.ok(salt.every((value) => Number.isInteger(value) && value >= 0 && value <= 65535));
  assert.notDeepEqual(randomSalt(), salt);
});

test('epoch index is (block + netuid + 1) / (tempo + 1), and the first block of an epoch inverts it', () => {
  // tempo 360, netuid 11: epochs start every 361 blocks, offset by 12.
  assert.equal(epochIndex(0, 11, 360), 0);
  assert.equal(epochIndex(348, 11, 360), 0);
  assert.equal(epochIndex(349, 11, 360), 1);
  assert.equal(firstBlockOfEpoch(1, 11, 360), 349);
  for (const [netuid, tempo] of [
    [11, 360],
    [3, 99],
    [0, 0],
    [1, 10],
  ] as const) {
    for (let epoch = 1; epoch < 40; epoch++) {
      const first = firstBlockOfEpoch(epoch, netuid, tempo);
      assert.equal(epochIndex(first, netuid, tempo), epoch);
      assert.equal(epochIndex(first - 1, netuid, tempo), epoch - 1);
    }
  }
});

test('a commit in epoch E is revealed throughout epoch E + RevealPeriodEpochs and expires after it', () => {
  const window = revealWindow(epochIndex(1000, 11, 360), 11, 360, 1);
  assert.deepEqual(window, { commitEpoch: 2, revealEpoch: 3, revealFromBlock: 1071, revealUntilBlock: 1431 });
  assert.equal(revealState(2, window.revealEpoch), 'early');
  assert.equal(revealState(3, window.revealEpoch), 'open');
  assert.equal(revealState(4, window.revealEpoch), 'expired');
});
