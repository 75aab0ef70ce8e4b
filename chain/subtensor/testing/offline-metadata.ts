// A type registry from a saved metadata file, with no node: encodes calls, builds storage keys
// and decodes values exactly as a connected ApiPromise would for that runtime. Tests use the
// finney metadata (spec 424) in shared/chain/.
import { readFileSync } from 'node:fs';
import { Metadata, TypeRegistry, expandMetadata } from '@polkadot/types';
import type { Call } from '@polkadot/types/interfaces';
import type { CallBuilders } from '../subtensor-calls.ts';
import { subtensorSignedExtensions } from '../subtensor-connection.ts';

export interface OfflineRuntime {
  registry: TypeRegistry;
  metadata: Metadata;
  /** `tx.<section>.<method>(…args)` → Call, as `api.tx` without signing. */
  tx: CallBuilders<Call>;
  /** `query.<section>.<item>(…keys)` → the storage key, compact-length prefixed. */
  query: Record<string, Record<string, (...args: unknown[]) => Uint8Array>>;
}

export function loadOfflineRuntime(metadataFile: string): OfflineRuntime {
  const registry = new TypeRegistry();
  const metadata = new Metadata(registry, new Uint8Array(readFileSync(metadataFile)));
  registry.setMetadata(metadata, undefined, subtensorSignedExtensions, true);
  const decorated = expandMetadata(registry, metadata);
  return {
    registry,
    metadata,
    tx: decorated.tx as unknown as CallBuilders<Call>,
    query: decorated.query as unknown as OfflineRuntime['query'],
  };
}
