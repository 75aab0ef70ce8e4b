// Storage keys the client reads, from the finney metadata (spec 424), checked against
// twox128(pallet) ++ twox128(item) ++ hashed keys computed by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compactStripLength, u8aConcat, u8aToHex } from '@polkadot/util';
import { decodeAddress, xxhashAsU8a } from '@polkadot/util-crypto';
import { finneyMetadataFile, requireChainTestFile } from './testing/chain-test-data.ts';
import { netuidIndex } from './commit-reveal.ts';
import { loadOfflineRuntime } from './testing/offline-metadata.ts';
import { u16 } from './testing/scale-by-hand.ts';

const runtime = loadOfflineRuntime(requireChainTestFile(finneyMetadataFile));
const alice = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';

function prefix(pallet: string, item: string): Uint8Array {
  return u8aConcat(xxhashAsU8a(pallet, 128), xxhashAsU8a(item, 128));
}

function keyOf(section: string, item: string, ...args: unknown[]): string {
  const creator = runtime.query[section]?.[item];
  assert.ok(creator, `${section}.${item} in metadata`);
  return u8aToHex(compactStripLength(creator(...args))[1]);
}

test('CommitmentOf(11, account): Identity netuid, Twox64Concat account', () => {
  const account = decodeAddress(alice);
  const expected = u8aConcat(
    prefix('Commitments', 'CommitmentOf'),
    Uint8Array.from(u16(11)),
    xxhashAsU8a(account, 64),
    account,
  );
  assert.equal(keyOf('commitments', 'commitmentOf', 11, alice), u8aToHex(expected));
  // The well-known twox128("Commitments") prefix, spelled out.
  assert.equal(u8aToHex(xxhashAsU8a('Commitments', 128)), '0xca407206ec1ab726b2636c4b145ac287');
});

test('Weights(netuid_index 11, uid 3): two Identity u16 keys', () => {
  const expected = u8aConcat(
    prefix('SubtensorModule', 'Weights'),
    Uint8Array.from(u16(netuidIndex(11))),
    Uint8Array.from(u16(3)),
  );
  assert.equal(keyOf('subtensorModule', 'weights', netuidIndex(11), 3), u8aToHex(expected));
  assert.equal(u8aToHex(xxhashAsU8a('SubtensorModule', 128)), '0x658faa385070e074c85bf6b568cf0555');
});

test('LastUpdate(11): one Identity u16 key', () => {
  const expected = u8aConcat(prefix('SubtensorModule', 'LastUpdate'), Uint8Array.from(u16(11)));
  assert.equal(keyOf('subtensorModule', 'lastUpdate', 11), u8aToHex(expected));
});

test('a second mechanism is stored under netuid_index = mecid * 4096 + netuid', () => {
  assert.equal(netuidIndex(11, 1), 4107);
  const expected = u8aConcat(prefix('SubtensorModule', 'Weights'), Uint8Array.from(u16(4107)), Uint8Array.from(u16(0)));
  assert.equal(keyOf('subtensorModule', 'weights', netuidIndex(11, 1), 0), u8aToHex(expected));
});
