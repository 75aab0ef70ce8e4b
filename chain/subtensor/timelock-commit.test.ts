// Commit-reveal v4: the payload against hand SCALE and the metadata registry, the call bytes
// against the finney spec 424 metadata, and the ciphertext opened three ways — by the WASM's own
// `tld` (the Rust Subtensor runs), by an independent decryptor, with a local key pair and with a
// real drand quicknet signature.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { tld } from '@ideallabs/timelock_wasm_wrapper';
import { hexToU8a } from '@polkadot/util';
import { decodeAddress } from '@polkadot/util-crypto';
import { ChainError } from '../chain-error.ts';
import { finneyMetadataFile, requireChainTestFile } from './testing/chain-test-data.ts';
import { loadOfflineRuntime } from './testing/offline-metadata.ts';
import { compact, hex, u16, u64, vector } from './testing/scale-by-hand.ts';
import { buildCall } from './subtensor-calls.ts';
import {
  commitTimelockedWeightsCall,
  drandRoundIdentity,
  encodeWeightsTlockPayload,
  encryptWeightsCommit,
  quicknetBeacon,
  type WeightsTlockPayload,
} from './timelock-commit.ts';
import {
  decryptTimelockBody,
  decryptTimelockIndependently,
  localBeacon,
  parseTimelockCiphertext,
  verifyBeaconSignature,
} from './testing/timelock-independent-decrypt.ts';

const runtime = loadOfflineRuntime(requireChainTestFile(finneyMetadataFile));

const payload: WeightsTlockPayload = {
  hotkey: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY',
  uids: [5, 17],
  values: [65535, 1000],
  versionKey: 3,
};

// Quicknet round 1000 and 20000 signatures, as published by drand (copied into Subtensor's
// pallets/commitments/src/mock.rs and pallets/drand/src/tests.rs at 536c8938d).
const quicknetRound1000Signature = hexToU8a(
  '0xb44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39',
);
const quicknetRound20000Signature = hexToU8a(
  '0xb6cb8f482a0b15d45936a4c4ea08e98a087e71787caee3f4d07a8a9843b1bc5423c6b3c22f446488b3137eaca799c77e',
);

/** The Rust `tld` compiled into the same WASM: what the chain runs on the commit. */
function wasmDecrypt(ciphertext: Uint8Array, signature: Uint8Array): Uint8Array {
  return Uint8Array.from(tld(ciphertext, signature, 'bls12_381') as ArrayLike<number>);
}

test('WeightsTlockPayload is SCALE(Vec<u8> hotkey = AccountId32 bytes, Vec<u16>, Vec<u16>, u64), by hand', () => {
  const accountId = [...decodeAddress(payload.hotkey)];
  const expected = [
    ...compact(32),
    ...accountId,
    ...vector([u16(5), u16(17)]),
    ...vector([u16(65535), u16(1000)]),
    ...u64(3),
  ];
  assert.equal(hex(encodeWeightsTlockPayload(payload)), hex(expected));
  assert.equal(expected[0], 0x80, 'the hotkey is a byte vector, so its 32 bytes carry a length prefix');
});

test('the payload decodes as the chain decodes it: the struct, then the hotkey bytes as an AccountId32', () => {
  const decoded = runtime.registry.createType('(Bytes, Vec<u16>, Vec<u16>, u64)', encodeWeightsTlockPayload(payload));
  const [hotkey, uids, values, versionKey] = decoded as unknown as [
    { toU8a(bare: boolean): Uint8Array },
    { toJSON(): unknown },
    { toJSON(): unknown },
    { toNumber(): number },
  ];
  const account = runtime.registry.createType('AccountId32', hotkey.toU8a(true));
  assert.equal(account.toString(), runtime.registry.createType('AccountId32', payload.hotkey).toString());
  assert.deepEqual([uids.toJSON(), values.toJSON(), versionKey.toNumber()], [[5, 17], [65535, 1000], 3]);
});

test('the identity for a round is sha256 of the round as eight big-endian bytes, and quicknet signed exactly that', () => {
  const expected = createHash('sha256')
    .update(Uint8Array.from([0, 0, 0, 0, 0, 0, 0x03, 0xe8]))
    .digest();
  assert.equal(hex(drandRoundIdentity(1000)), hex(expected));
  const publicKey = hexToU8a(quicknetBeacon.publicKeyHex);
  assert.ok(
    verifyBeaconSignature(publicKey, drandRoundIdentity(1000), quicknetRound1000Signature),
    'drand signed sha256(round BE) under the quicknet DST',
  );
  assert.ok(!verifyBeaconSignature(publicKey, drandRoundIdentity(1001), quicknetRound1000Signature));
});

test('the ciphertext has the ark-serialize TLECiphertext layout, and its AES body opens with the sealed key', () => {
  const ephemeralKey = new Uint8Array(32).fill(7);
  const ciphertext = encryptWeightsCommit({ ...payload, revealRound: 1000, ephemeralKey });
  const parsed = parseTimelockCiphertext(ciphertext);
  assert.deepEqual(
    [parsed.v.length, parsed.w.length, parsed.nonce.length, parsed.cipherSuite],
    [32, 32, 12, 'AES_GCM_'],
  );
  const plaintext = encodeWeightsTlockPayload(payload);
  assert.equal(parsed.aesCiphertext.length, plaintext.length + 16, 'AES-GCM adds a 16-byte tag');
  assert.equal(hex(decryptTimelockBody(parsed, ephemeralKey)), hex(plaintext));
  // 96 (U) + 2 × (8 + 32) + (8 + 8 + payload + 16 + 8 + 12) + (8 + 8).
  assert.equal(ciphertext.length, 96 + 80 + 8 + 8 + plaintext.length + 16 + 8 + 12 + 16);
});

test('round trip with a local beacon key: encrypt to its public key, decrypt with its signature on the round', () => {
  const beacon = localBeacon(0x1234_5678_9abc_def0_1122_3344_5566_7788n);
  const ciphertext = encryptWeightsCommit({ ...payload, revealRound: 424, drandPublicKey: beacon.publicKey });
  const signature = beacon.sign(drandRoundIdentity(424));
  const plaintext = hex(encodeWeightsTlockPayload(payload));
  assert.equal(hex(wasmDecrypt(ciphertext, signature)), plaintext);
  assert.equal(hex(decryptTimelockIndependently(ciphertext, signature)), plaintext);
  const otherRound = beacon.sign(drandRoundIdentity(425));
  assert.throws(() => wasmDecrypt(ciphertext, otherRound));
  assert.throws(() => decryptTimelockIndependently(ciphertext, otherRound), /wrong signature/);
});

test('round trip with drand quicknet itself: encrypted to round 1000, opened by the published round 1000 signature only', () => {
  const ciphertext = encryptWeightsCommit({ ...payload, revealRound: 1000 });
  const plaintext = hex(encodeWeightsTlockPayload(payload));
  assert.equal(hex(wasmDecrypt(ciphertext, quicknetRound1000Signature)), plaintext);
  assert.equal(hex(decryptTimelockIndependently(ciphertext, quicknetRound1000Signature)), plaintext);
  assert.throws(() => wasmDecrypt(ciphertext, quicknetRound20000Signature));
  assert.throws(() => decryptTimelockIndependently(ciphertext, quicknetRound20000Signature));
});

test('each commit is freshly randomised: the same weights never give the same ciphertext', () => {
  assert.notEqual(
    hex(encryptWeightsCommit({ ...payload, revealRound: 1000 })),
    hex(encryptWeightsCommit({ ...payload, revealRound: 1000 })),
  );
});

test('commit_timelocked_weights(11, commit, 2399689, 4) encodes byte for byte against spec 424', () => {
  const commit = Uint8Array.from({ length: 300 }, (_, index) => index & 0xff);
  const call = buildCall(runtime.tx, commitTimelockedWeightsCall(11, commit, 2_399_689, 4));
  const expected = [7, 113, ...u16(11), ...compact(300), ...commit, ...u64(2_399_689), ...u16(4)];
  assert.equal(call.toHex(), hex(expected));
  assert.deepEqual(compact(300), [0xb1, 0x04], 'a two-byte compact length');
  // A ciphertext whose first byte would read as a compact length is still sent whole.
  const real = encryptWeightsCommit({ ...payload, revealRound: 1000 });
  const realCall = buildCall(runtime.tx, commitTimelockedWeightsCall(11, real, 1000, 4));
  assert.equal(realCall.toHex(), hex([7, 113, ...u16(11), ...compact(real.length), ...real, ...u64(1000), ...u16(4)]));
});

test('a commit over 5000 bytes is refused before signing; bad keys are refused', () => {
  const uids = Array.from({ length: 1200 }, (_, index) => index);
  assert.throws(
    () => encryptWeightsCommit({ ...payload, uids, values: uids, revealRound: 1000 }),
    (error: unknown) =>
      error instanceof ChainError && error.kind === 'preflight' && error.code === 'timelock_commit_too_large',
  );
  assert.throws(
    () => encryptWeightsCommit({ ...payload, revealRound: 1000, drandPublicKey: new Uint8Array(48) }),
    (error: unknown) => error instanceof ChainError && error.code === 'bad_drand_public_key',
  );
  const atLimit = Array.from({ length: 1000 }, (_, index) => index);
  assert.ok(encryptWeightsCommit({ ...payload, uids: atLimit, values: atLimit, revealRound: 1000 }).length <= 5000);
});
