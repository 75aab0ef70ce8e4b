// Commitment values as the finney runtime stores them (`Registration { deposit, block, info }`),
// encoded by hand, decoded through the metadata and the client's parsing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { finneyMetadataFile, requireChainTestFile } from './testing/chain-test-data.ts';
import { commitmentEntryFromCodec, commitmentInfo, decodeCommitmentEntry } from './commitment-fields.ts';
import { loadOfflineRuntime } from './testing/offline-metadata.ts';
import { bytesOf, compact, hex, u32, u64 } from './testing/scale-by-hand.ts';

const runtime = loadOfflineRuntime(requireChainTestFile(finneyMetadataFile));
const hotkey = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
const packHash = 'a'.repeat(64);
const url = 'https://packs.example.org/trl/pack-1.tar.gz';

/** Registration bytes: deposit u64, block u32, fields Vec<Data> with each field = variant byte + payload. */
function registrationBytes(block: number, fields: number[][]): string {
  return hex([...u64(1_000_000), ...u32(block), ...compact(fields.length), ...fields.flat()]);
}

function rawField(bytes: number[]): number[] {
  return [bytes.length + 1, ...bytes];
}

function decode(bytes: string) {
  const registration = runtime.registry.createType('PalletCommitmentsRegistration', bytes);
  return decodeCommitmentEntry(commitmentEntryFromCodec(hotkey, registration));
}

test('a Raw field holding "<hash>|<https url>" decodes to a pack commitment at its block', () => {
  const decoded = decode(registrationBytes(4_321_000, [rawField(bytesOf(`${packHash}|${url}`))]));
  assert.deepEqual(decoded, { ok: true, commitment: { hotkey, packHash, url, block: 4_321_000 } });
});

test('the hash is normalised to lower case; a second field is ignored', () => {
  const decoded = decode(
    registrationBytes(7, [rawField(bytesOf(`${'ABCDEF01'.repeat(8)}|${url}`)), rawField(bytesOf('extra'))]),
  );
  assert.equal(decoded.ok && decoded.commitment.packHash, 'abcdef01'.repeat(8));
});

test('a hashed field (Sha256, variant 131) is skipped as not Raw', () => {
  const decoded = decode(registrationBytes(9, [[131, ...Array(32).fill(7)]]));
  assert.equal(decoded.ok, false);
  assert.match(!decoded.ok ? decoded.skipped.reason : '', /field 0 is Sha256, not Raw/);
});

test('no fields, invalid utf-8 and malformed text are skipped with their reasons, not thrown', () => {
  const empty = decode(registrationBytes(1, []));
  assert.equal(!empty.ok && empty.skipped.reason, 'the commitment has no fields');
  const binary = decode(registrationBytes(2, [rawField([0xff, 0xfe, 0x41])]));
  assert.equal(!binary.ok && binary.skipped.reason, 'field 0 is not valid utf-8');
  const malformed = decode(registrationBytes(3, [rawField(bytesOf('hello world'))]));
  assert.match(!malformed.ok ? malformed.skipped.reason : '', /exactly one "\|"/);
  assert.equal(!malformed.ok && malformed.skipped.raw, 'hello world');
  assert.equal(!malformed.ok && malformed.skipped.block, 3);
  const plainHttp = decode(registrationBytes(4, [rawField(bytesOf(`${packHash}|http://packs.example.org/p`))]));
  assert.match(!plainHttp.ok ? plainHttp.skipped.reason : '', /https/);
});

test('control characters in a skipped raw value are neutralised for display', () => {
  const decoded = decode(registrationBytes(5, [rawField(bytesOf('bad\u001b[31m|text'))]));
  assert.equal(!decoded.ok && decoded.skipped.raw, 'bad?[31m|text');
});

test('the set_commitment argument round-trips through the metadata type', () => {
  const text = `${packHash}|${url}`;
  const info = runtime.registry.createType('PalletCommitmentsCommitmentInfo', commitmentInfo(text));
  assert.equal(info.toHex(), hex([...compact(1), ...rawField(bytesOf(text))]));
});
