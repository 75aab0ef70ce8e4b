// Commit-reveal v2 arithmetic: the commit hash Subtensor recomputes at reveal time, the salt,
// and the epoch schedule that says when a reveal is accepted. Pure; no chain access.
import { blake2AsU8a, decodeAddress, randomAsU8a } from '@polkadot/util-crypto';
import { compactToU8a, u8aConcat, u8aToHex } from '@polkadot/util';

export interface CommitPayload {
  /** ss58 address of the hotkey that commits and later reveals. */
  hotkey: string;
  /** mecid * 4096 + netuid; the main mechanism (0) is the netuid itself. */
  netuidIndex: number;
  uids: number[];
  values: number[];
  salt: number[];
  versionKey: number;
}

export function netuidIndex(netuid: number, mechanismId = 0): number {
  return mechanismId * 4096 + netuid;
}

function u16Le(value: number): Uint8Array {
  return new Uint8Array([value & 0xff, (value >> 8) & 0xff]);
}

function u16Vector(values: number[]): Uint8Array {
  return u8aConcat(compactToU8a(values.length), ...values.map(u16Le));
}

function u64Le(value: number): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(value), true);
  return bytes;
}

/** SCALE(AccountId32, u16, Vec<u16>, Vec<u16>, Vec<u16>, u64): what `get_commit_hash` hashes. */
export function encodeCommitPayload(payload: CommitPayload): Uint8Array {
  return u8aConcat(
    decodeAddress(payload.hotkey),
    u16Le(payload.netuidIndex),
    u16Vector(payload.uids),
    u16Vector(payload.values),
    u16Vector(payload.salt),
    u64Le(payload.versionKey),
  );
}

/** blake2_256 of the SCALE payload, as `0x…` (the H256 that `commit_weights` takes). */
export function commitHash(payload: CommitPayload): string {
  return u8aToHex(blake2AsU8a(encodeCommitPayload(payload), 256));
}

/** Eight random u16: without a salt, anyone could brute-force a small weight vector from its hash. */
export function randomSalt(length = 8): number[] {
  const bytes = randomAsU8a(length * 2);
  return Array.from({ length }, (_, index) => bytes[2 * index]! | (bytes[2 * index + 1]! << 8));
}

/**
 * Subtensor's tempo epoch index, `(block + netuid + 1) / (tempo + 1)`: the netuid offset
 * staggers subnets so they do not all run their epoch in the same block.
 */
export function epochIndex(block: number, netuid: number, tempo: number): number {
  return Math.floor((block + netuid + 1) / (tempo + 1));
}

/** First block of an epoch: the inverse of `epochIndex`, `epoch * (tempo + 1) - (netuid + 1)`. */
export function firstBlockOfEpoch(epoch: number, netuid: number, tempo: number): number {
  return Math.max(0, epoch * (tempo + 1) - (netuid + 1));
}

export interface RevealWindow {
  commitEpoch: number;
  revealEpoch: number;
  /** First block of the reveal epoch. */
  revealFromBlock: number;
  /** Last block of the reveal epoch; after it the commit has expired. */
  revealUntilBlock: number;
}

/** A commit made in epoch E is revealed during epoch E + RevealPeriodEpochs, and not after. */
export function revealWindow(
  commitEpoch: number,
  netuid: number,
  tempo: number,
  revealPeriodEpochs: number,
): RevealWindow {
  const revealEpoch = commitEpoch + revealPeriodEpochs;
  return {
    commitEpoch,
    revealEpoch,
    revealFromBlock: firstBlockOfEpoch(revealEpoch, netuid, tempo),
    revealUntilBlock: firstBlockOfEpoch(revealEpoch + 1, netuid, tempo) - 1,
  };
}

export type RevealState = 'early' | 'open' | 'expired';

export function revealState(currentEpoch: number, revealEpoch: number): RevealState {
  if (currentEpoch < revealEpoch) return 'early';
  return currentEpoch === revealEpoch ? 'open' : 'expired';
}
