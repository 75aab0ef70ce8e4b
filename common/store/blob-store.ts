// The shared store's one interface: content-addressed blobs (packs, bundles, artifacts) by sha256.
// A reference is the hash and the size, nothing else, so it means the same bytes on every host and
// in every implementation; an ArtifactRef ({path, sha256, sizeBytes}) is one as it stands. Every
// read verifies the hash before it hands anything back, and every read is bounded.
import type { ArtifactRef } from '../../contracts/artifact.ts';

export type BlobRef = Pick<ArtifactRef, 'sha256' | 'sizeBytes'>;

/** What `get` holds in memory at most unless the caller says otherwise; larger blobs go to a file. */
export const defaultMaxBlobBytes = 64 * 1024 * 1024;

export interface BlobStore {
  /** `file` (this host's disk) or `s3` (a bucket several hosts share). */
  readonly kind: 'file' | 's3';
  /** Where the blobs live, for messages: a folder or `s3://bucket`. */
  readonly location: string;
  /** Stores the bytes under their hash; storing the same bytes again is harmless. */
  put(content: Buffer | string): Promise<BlobRef>;
  /** Stores a file of any size, streamed (never whole in memory). */
  putFile(file: string): Promise<BlobRef>;
  /** The verified bytes. Refuses (BlobTooLargeError) a ref over `maxBytes` before reading a byte. */
  get(ref: BlobRef, options?: { maxBytes?: number }): Promise<Buffer>;
  /** Streams the blob into `file`, verified before the file appears (a temporary file, then a rename). */
  getToFile(ref: BlobRef, file: string): Promise<void>;
  /** Whether an object of that hash and size is stored (not a hash check: `get` does that). */
  has(ref: BlobRef): Promise<boolean>;
  /** At start: the store answers (bucket exists, keys accepted), else a ConfigError naming the setting to fix. */
  checkAccess(): Promise<void>;
}

/** The stored bytes are not the ones the reference names: never returned, always this error. */
export class BlobCorruptError extends Error {
  readonly code = 'blob_corrupt';
  constructor(
    readonly sha256: string,
    detail: string,
    location: string,
  ) {
    super(`blob ${sha256} in ${location} does not match its reference: ${detail}`);
    this.name = 'BlobCorruptError';
  }
}

export class BlobMissingError extends Error {
  readonly code = 'blob_missing';
  constructor(
    readonly sha256: string,
    location: string,
  ) {
    super(`blob ${sha256} is not in ${location}`);
    this.name = 'BlobMissingError';
  }
}

export class BlobTooLargeError extends Error {
  readonly code = 'blob_too_large';
  constructor(
    readonly sha256: string,
    sizeBytes: number,
    maxBytes: number,
  ) {
    super(
      `blob ${sha256} is ${sizeBytes} bytes, over the ${maxBytes}-byte limit of an in-memory read; read it with getToFile`,
    );
    this.name = 'BlobTooLargeError';
  }
}

const sha256Pattern = /^[0-9a-f]{64}$/;

/** A reference from outside (a payload, a file) checked before it names a key or a path. */
export function checkBlobRef(ref: BlobRef): void {
  if (!sha256Pattern.test(ref.sha256))
    throw new Error(`not a sha256 hex digest: ${JSON.stringify(String(ref.sha256).slice(0, 80))}`);
  if (!Number.isSafeInteger(ref.sizeBytes) || ref.sizeBytes < 0)
    throw new Error(`blob ${ref.sha256}: sizeBytes ${ref.sizeBytes} is not a size`);
}
