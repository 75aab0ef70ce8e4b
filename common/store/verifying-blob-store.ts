// What every store shares: reads go through the hash check (verified-read.ts) whatever the bytes'
// source; a store supplies only how to open a blob's bytes.
import { BlobTooLargeError, checkBlobRef, defaultMaxBlobBytes, type BlobRef, type BlobStore } from './blob-store.ts';
import { copyVerifiedToFile, readVerifiedBytes } from './verified-read.ts';

export abstract class VerifyingBlobStore implements Pick<BlobStore, 'get' | 'getToFile'> {
  abstract readonly location: string;

  /** The blob's bytes as stored (unverified); BlobMissingError when there is none. */
  protected abstract open(ref: BlobRef): Promise<AsyncIterable<Uint8Array>>;

  async get(ref: BlobRef, options: { maxBytes?: number } = {}): Promise<Buffer> {
    checkBlobRef(ref);
    const maxBytes = options.maxBytes ?? defaultMaxBlobBytes;
    if (ref.sizeBytes > maxBytes) throw new BlobTooLargeError(ref.sha256, ref.sizeBytes, maxBytes);
    return readVerifiedBytes(await this.open(ref), ref, this.location);
  }

  async getToFile(ref: BlobRef, file: string): Promise<void> {
    checkBlobRef(ref);
    await copyVerifiedToFile(await this.open(ref), ref, this.location, file);
  }
}
