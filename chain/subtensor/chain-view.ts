// Reads at one block through the metadata the runtime declares. Subtensor's pallets are not in
// @polkadot/api's augmented types, and old runtimes lack items, so every lookup may be absent.
import type { ApiDecoration, QueryableStorageEntry } from '@polkadot/api/types';
import type { Codec } from '@polkadot/types/types';

export type BlockView = ApiDecoration<'promise'>;

export type StorageEntry = QueryableStorageEntry<'promise'>;

export function storageItem(view: BlockView, section: string, item: string): StorageEntry | undefined {
  return view.query[section]?.[item];
}

/** One storage item for many keys in one request, at the view's block (entries at a block have no `.multi`). */
export async function readMany(view: BlockView, entry: StorageEntry, keys: unknown[][]): Promise<Codec[]> {
  if (keys.length === 0) return [];
  return view.queryMulti(keys.map((args) => [entry, ...args] as [StorageEntry, ...unknown[]]));
}

export type RuntimeCallFunction = (...args: unknown[]) => Promise<Codec>;

/** `api.call.<api>.<method>` when the runtime exposes it (metadata v15+ lists runtime APIs). */
export function runtimeCall(view: BlockView, runtimeApi: string, method: string): RuntimeCallFunction | undefined {
  const call = view.call[runtimeApi]?.[method];
  return call ? (call as unknown as RuntimeCallFunction) : undefined;
}

/** A codec number (u16/u32/u64/Compact) as a JS number; u64 values here (blocks, keys) fit. */
export function codecNumber(value: unknown): number {
  const codec = value as { toBigInt?: () => bigint; toNumber?: () => number };
  if (typeof codec.toBigInt === 'function') return Number(codec.toBigInt());
  if (typeof codec.toNumber === 'function') return codec.toNumber();
  throw new TypeError('expected a numeric codec');
}

export function codecBoolean(value: unknown): boolean {
  return (value as { isTrue: boolean }).isTrue === true;
}

/** Elements of a Vec<…> codec as an array. */
export function codecArray<T = unknown>(value: unknown): T[] {
  return Array.from(value as Iterable<T>);
}
