// The embedded default: blobs as files under the data directory (`blobFile(sha256)`), one host.
import { createReadStream } from 'node:fs';
import { mkdir, open, stat } from 'node:fs/promises';
import { blobFile, blobStoreDir } from '../data-layout.ts';
import { writeFileAtomic } from '../atomic-write.ts';
import { BlobMissingError, checkBlobRef, type BlobRef, type BlobStore } from './blob-store.ts';
import { copyVerifiedToFile, hashBytes, hashFile, readChunkBytes } from './verified-read.ts';
import { VerifyingBlobStore } from './verifying-blob-store.ts';

export class FileBlobStore extends VerifyingBlobStore implements BlobStore {
  readonly kind = 'file' as const;
  readonly location = blobStoreDir;

  async put(content: Buffer | string): Promise<BlobRef> {
    const bytes = typeof content === 'string' ? Buffer.from(content) : content;
    const ref = hashBytes(bytes);
    // Always written (atomically): a put of the right bytes also repairs a damaged copy.
    await writeFileAtomic(blobFile(ref.sha256), bytes);
    return ref;
  }

  async putFile(file: string): Promise<BlobRef> {
    const ref = await hashFile(file);
    // The copy is verified against the first pass, so a file changed meanwhile is refused, not stored under a wrong
    // name.
    await copyVerifiedToFile(
      createReadStream(file, { highWaterMark: readChunkBytes }),
      ref,
      file,
      blobFile(ref.sha256),
    );
    return ref;
  }

  async has(ref: BlobRef): Promise<boolean> {
    checkBlobRef(ref);
    try {
      const info = await stat(blobFile(ref.sha256));
      return info.isFile() && info.size === ref.sizeBytes;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  async checkAccess(): Promise<void> {
    await mkdir(blobStoreDir, { recursive: true });
  }

  protected async open(ref: BlobRef): Promise<AsyncIterable<Uint8Array>> {
    try {
      const handle = await open(blobFile(ref.sha256), 'r');
      return handle.createReadStream({ highWaterMark: readChunkBytes });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobMissingError(ref.sha256, this.location);
      throw error;
    }
  }
}
