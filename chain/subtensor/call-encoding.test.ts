// Exact call bytes for the finney runtime (spec 424), built through the client's call plans and
// the real metadata, checked against encodings written out by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChainError } from '../chain-error.ts';
import { finneyMetadataFile, requireChainTestFile } from './testing/chain-test-data.ts';
import { loadOfflineRuntime } from './testing/offline-metadata.ts';
import { compact, hex, u16, u64, u8, vector, bytesOf } from './testing/scale-by-hand.ts';
import {
  buildCall,
  commitWeightsCall,
  revealWeightsCall,
  setCommitmentCall,
  setMechanismWeightsCall,
  setWeightsCall,
} from './subtensor-calls.ts';

const runtime = loadOfflineRuntime(requireChainTestFile(finneyMetadataFile));

/** Pallet and call indices read from the metadata's own lookup, not from the decorated `tx`. */
function indices(palletName: string, callName: string): [number, number] {
  const pallet = runtime.metadata.asLatest.pallets.find((candidate) => candidate.name.toString() === palletName);
  assert.ok(pallet, `pallet ${palletName} in metadata`);
  const callType = runtime.registry.lookup.getSiType(pallet.calls.unwrap().type);
  const variant = callType.def.asVariant.variants.find((candidate) => candidate.name.toString() === callName);
  assert.ok(variant, `call ${palletName}.${callName} in metadata`);
  return [pallet.index.toNumber(), variant.index.toNumber()];
}

test('finney spec 424 pallet and call indices are the ones the client relies on', () => {
  assert.deepEqual(indices('SubtensorModule', 'set_weights'), [7, 0]);
  assert.deepEqual(indices('SubtensorModule', 'commit_weights'), [7, 96]);
  assert.deepEqual(indices('SubtensorModule', 'reveal_weights'), [7, 97]);
  assert.deepEqual(indices('SubtensorModule', 'commit_timelocked_weights'), [7, 113]);
  assert.deepEqual(indices('SubtensorModule', 'set_mechanism_weights'), [7, 119]);
  assert.deepEqual(indices('Commitments', 'set_commitment'), [18, 0]);
});

test('set_mechanism_weights(11, 0, [5], [65535], 0) encodes byte for byte', () => {
  const call = buildCall(runtime.tx, setMechanismWeightsCall(11, [5], [65535], 0));
  const expected = [
    ...indices('SubtensorModule', 'set_mechanism_weights'),
    ...u16(11),
    ...u8(0),
    ...vector([u16(5)]),
    ...vector([u16(65535)]),
    ...u64(0),
  ];
  assert.equal(call.toHex(), hex(expected));
  assert.equal(call.toHex(), '0x07770b000004050004ffff0000000000000000');
});

test('set_weights(11, [5], [65535], 0) encodes byte for byte', () => {
  const call = buildCall(runtime.tx, setWeightsCall(11, [5], [65535], 0));
  const expected = [
    ...indices('SubtensorModule', 'set_weights'),
    ...u16(11),
    ...vector([u16(5)]),
    ...vector([u16(65535)]),
    ...u64(0),
  ];
  assert.equal(call.toHex(), hex(expected));
  assert.equal(call.toHex(), '0x07000b0004050004ffff0000000000000000');
});

test('commit_weights(11, hash) is the netuid then the 32 hash bytes, no length prefix (H256)', () => {
  const hash = `0x${'ab'.repeat(31)}cd`;
  const call = buildCall(runtime.tx, commitWeightsCall(11, hash));
  const expected = [...indices('SubtensorModule', 'commit_weights'), ...u16(11), ...Array(31).fill(0xab), 0xcd];
  assert.equal(call.toHex(), hex(expected));
});

test('reveal_weights(11, [5], [65535], salt, 0) carries the eight-element salt as Vec<u16>', () => {
  const salt = [1, 2, 3, 4, 5, 6, 7, 65535];
  const call = buildCall(runtime.tx, revealWeightsCall(11, [5], [65535], salt, 0));
  const expected = [
    ...indices('SubtensorModule', 'reveal_weights'),
    ...u16(11),
    ...vector([u16(5)]),
    ...vector([u16(65535)]),
    ...vector(salt.map(u16)),
    ...u64(0),
  ];
  assert.equal(call.toHex(), hex(expected));
  assert.deepEqual(compact(8), [0x20]);
});

test('set_commitment(11, {fields: [Raw("<hash>|<url>")]}) uses the Raw<length> variant, index length + 1', () => {
  const text = `${'0123456789abcdef'.repeat(4)}|https://packs.example.org/p/pack.tar.gz`;
  const call = buildCall(runtime.tx, setCommitmentCall(11, text));
  const bytes = bytesOf(text);
  const expected = [...indices('Commitments', 'set_commitment'), ...u16(11), ...compact(1), bytes.length + 1, ...bytes];
  assert.equal(call.toHex(), hex(expected));
  assert.equal(bytes.length, 104);
});

test('a 128-byte commitment is the largest Raw; 129 bytes are refused before signing', () => {
  const longest = 'x'.repeat(128);
  const call = buildCall(runtime.tx, setCommitmentCall(11, longest));
  assert.equal(call.toHex(), hex([18, 0, ...u16(11), ...compact(1), 129, ...bytesOf(longest)]));
  assert.throws(
    () => setCommitmentCall(11, 'x'.repeat(129)),
    (error: unknown) =>
      error instanceof ChainError && error.kind === 'preflight' && error.code === 'commitment_too_long',
  );
  // Multi-byte characters count as bytes, not characters.
  assert.throws(() => setCommitmentCall(11, 'é'.repeat(65)), ChainError);
});
