// Commit-reveal v4: weights encrypted to a future drand quicknet round and sent with
// `commit_timelocked_weights`; Subtensor decrypts them itself once the round's pulse is on chain,
// so there is nothing to reveal or keep. What the chain expects (opentensor/subtensor 536c8938d,
// spec 424, pallets/subtensor/src/coinbase/reveal_commits.rs):
// - plaintext: SCALE `WeightsTlockPayload { hotkey: Vec<u8> (the SCALE AccountId32, checked
//   against the committer), uids: Vec<u16>, values: Vec<u16>, version_key: u64 }`;
// - ciphertext: `TLECiphertext<TinyBLS381>` from ideal-lab5/timelock (rev 5416406), AES-GCM body,
//   ark-serialize compressed, at most 5000 bytes (MAX_CRV3_COMMIT_SIZE_BYTES);
// - identity: sha256 of the round as a big-endian u64, the message quicknet signs.
// The encryption is the timelock crate itself, compiled to WASM (@ideallabs/timelock_wasm_wrapper).
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { initSync, tle } from '@ideallabs/timelock_wasm_wrapper';
import { compactToU8a, hexToU8a, u8aConcat, u8aToHex } from '@polkadot/util';
import { decodeAddress, randomAsU8a } from '@polkadot/util-crypto';
import { ChainError } from '../chain-error.ts';
import type { CallPlan } from './subtensor-calls.ts';

/** The Drand pallet's default BeaconConfiguration (pallets/drand/src/lib.rs): drand quicknet. */
export const quicknetBeacon = {
  publicKeyHex:
    '0x83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
  genesisTimeSec: 1_692_803_367,
  periodSec: 3,
} as const;

export interface DrandBeacon {
  /** BLS12-381 G2 public key, 96 bytes compressed, as `0x…`. */
  publicKeyHex: string;
  genesisTimeSec: number;
  periodSec: number;
}

/** `commit_timelocked_weights` takes a BoundedVec of at most this many bytes. */
export const maxTimelockedCommitBytes = 5000;

/** The value Subtensor compares with its CommitRevealWeightsVersion storage (default 4). */
export const timelockedCommitRevealVersion = 4;

export interface WeightsTlockPayload {
  /** ss58 address of the committing hotkey. */
  hotkey: string;
  uids: number[];
  values: number[];
  versionKey: number;
}

function u16Vector(values: number[]): Uint8Array {
  const bytes = new Uint8Array(values.length * 2);
  values.forEach((value, index) => new DataView(bytes.buffer).setUint16(index * 2, value, true));
  return u8aConcat(compactToU8a(values.length), bytes);
}

/** SCALE(Vec<u8> hotkey, Vec<u16>, Vec<u16>, u64): the hotkey is the AccountId's encoding wrapped as bytes. */
export function encodeWeightsTlockPayload(payload: WeightsTlockPayload): Uint8Array {
  const accountId = decodeAddress(payload.hotkey);
  const versionKey = new Uint8Array(8);
  new DataView(versionKey.buffer).setBigUint64(0, BigInt(payload.versionKey), true);
  return u8aConcat(
    compactToU8a(accountId.length),
    accountId,
    u16Vector(payload.uids),
    u16Vector(payload.values),
    versionKey,
  );
}

/** What quicknet signs for a round (unchained scheme): sha256(round as big-endian u64). */
export function drandRoundIdentity(round: number | bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(round), false);
  return new Uint8Array(createHash('sha256').update(bytes).digest());
}

let wasmLoaded = false;

/** The wrapper's default loader fetches the .wasm by URL, which Node cannot do: load the bytes. */
function loadTimelockWasm(): void {
  if (wasmLoaded) return;
  const require = createRequire(import.meta.url);
  initSync({ module: readFileSync(require.resolve('@ideallabs/timelock_wasm_wrapper/timelock_wasm_wrapper_bg.wasm')) });
  wasmLoaded = true;
}

export interface EncryptWeightsCommitInput extends WeightsTlockPayload {
  revealRound: number;
  /** The beacon's G2 public key, `0x…` or bytes; quicknet's when omitted. */
  drandPublicKey?: string | Uint8Array;
  /** The AES-GCM key sealed by the IBE header; random unless a test pins it. */
  ephemeralKey?: Uint8Array;
}

/** The serialized `TLECiphertext<TinyBLS381>` that `commit_timelocked_weights` carries. */
export function encryptWeightsCommit(input: EncryptWeightsCommitInput): Uint8Array {
  const publicKey =
    typeof input.drandPublicKey === 'string'
      ? hexToU8a(input.drandPublicKey)
      : (input.drandPublicKey ?? hexToU8a(quicknetBeacon.publicKeyHex));
  const ephemeralKey = input.ephemeralKey ?? randomAsU8a(32);
  if (publicKey.length !== 96)
    throw new ChainError(
      'preflight',
      'bad_drand_public_key',
      `the drand public key must be 96 bytes (compressed G2), got ${publicKey.length}`,
    );
  if (ephemeralKey.length !== 32) throw new Error('the ephemeral key must be 32 bytes');
  if (!Number.isSafeInteger(input.revealRound) || input.revealRound < 1)
    throw new Error(`bad reveal round ${input.revealRound}`);
  loadTimelockWasm();
  let ciphertext: Uint8Array;
  try {
    const output: unknown = tle(
      drandRoundIdentity(input.revealRound),
      encodeWeightsTlockPayload(input),
      ephemeralKey,
      publicKey,
      'bls12_381',
    );
    ciphertext = Uint8Array.from(output as ArrayLike<number>);
  } catch (error) {
    throw new ChainError(
      'preflight',
      'timelock_encryption_failed',
      `timelock encryption of the weights failed: ${(error as Error).message ?? String(error)}`,
      { cause: error },
    );
  }
  if (ciphertext.length > maxTimelockedCommitBytes) {
    throw new ChainError(
      'preflight',
      'timelock_commit_too_large',
      `the encrypted weights are ${ciphertext.length} bytes; commit_timelocked_weights takes at most ${maxTimelockedCommitBytes} (send fewer uids)`,
    );
  }
  return ciphertext;
}

/**
 * The commit goes as hex: @polkadot/types reads a Uint8Array given for `Bytes` as already
 * length-prefixed, and would send a truncated commit.
 */
export function commitTimelockedWeightsCall(
  netuid: number,
  commit: Uint8Array,
  revealRound: number,
  commitRevealVersion: number,
): CallPlan {
  return {
    section: 'subtensorModule',
    method: 'commitTimelockedWeights',
    args: [netuid, u8aToHex(commit), revealRound, commitRevealVersion],
  };
}
