// The blob store this process's environment asks for (TRL_STORE): the local files by default.
import type { BlobStore } from './blob-store.ts';
import { FileBlobStore } from './file-blob-store.ts';
import { S3BlobStore } from './s3-blob-store.ts';
import { storeConfigFromEnvironment, type StoreConfig } from './store-config.ts';

export function openBlobStore(config: StoreConfig = storeConfigFromEnvironment()): BlobStore {
  return config.kind === 's3' ? S3BlobStore.fromConfig(config) : new FileBlobStore();
}

let shared: BlobStore | undefined;

/** This process's store, opened on first use from the environment (a bad setting throws ConfigError then). */
export function sharedBlobStore(): BlobStore {
  shared ??= openBlobStore();
  return shared;
}
