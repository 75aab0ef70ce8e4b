// Reading a blob's bytes from any source (a file stream, an S3 body) against its reference: the
// size bounds what is read (a stored object longer than its reference stops the read at once, so a
// swapped-in huge object cannot fill memory or disk), and the hash is checked before the bytes are
// handed back or the file appears.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rename, rm, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { BlobCorruptError, type BlobRef } from './blob-store.ts';

export const readChunkBytes = 1 << 20;

/** Walks the source, feeding `sink`, and throws BlobCorruptError unless it is exactly the referenced bytes. */
async function drainVerified(
  source: AsyncIterable<Uint8Array>,
  ref: BlobRef,
  location: string,
  sink: (chunk: Uint8Array) => Promise<void> | void,
): Promise<void> {
  const hash = createHash('sha256');
  let seenBytes = 0;
  // Leaving the loop early (throw) calls the iterator's return(), which destroys the stream.
  for await (const chunk of source) {
    seenBytes += chunk.length;
    if (seenBytes > ref.sizeBytes)
      throw new BlobCorruptError(
        ref.sha256,
        `the stored object is longer than the referenced ${ref.sizeBytes} bytes`,
        location,
      );
    hash.update(chunk);
    await sink(chunk);
  }
  if (seenBytes !== ref.sizeBytes)
    throw new BlobCorruptError(
      ref.sha256,
      `the stored object has ${seenBytes} bytes, the reference ${ref.sizeBytes}`,
      location,
    );
  const actual = hash.digest('hex');
  if (actual !== ref.sha256) throw new BlobCorruptError(ref.sha256, `its bytes hash to ${actual}`, location);
}

/** The verified bytes in memory (the caller has checked `ref.sizeBytes` against its limit). */
export async function readVerifiedBytes(
  source: AsyncIterable<Uint8Array>,
  ref: BlobRef,
  location: string,
): Promise<Buffer> {
  const bytes = Buffer.allocUnsafe(ref.sizeBytes);
  let offset = 0;
  await drainVerified(source, ref, location, (chunk) => {
    bytes.set(chunk, offset);
    offset += chunk.length;
  });
  return bytes;
}

/** Streams into `file` through a temporary file beside it; the file appears only once verified. */
export async function copyVerifiedToFile(
  source: AsyncIterable<Uint8Array>,
  ref: BlobRef,
  location: string,
  file: string,
): Promise<void> {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  let handle;
  try {
    await mkdir(path.dirname(file), { recursive: true });
    handle = await open(temporary, 'wx');
  } catch (error) {
    // Never iterated: release the source (an open file, an HTTP body holding a socket).
    (source as { destroy?: () => void }).destroy?.();
    throw error;
  }
  try {
    try {
      await drainVerified(source, ref, location, async (chunk) => {
        await handle.write(chunk);
      });
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** The reference of a file on disk, hashed by streaming (any size). */
export async function hashFile(file: string): Promise<BlobRef> {
  const hash = createHash('sha256');
  let sizeBytes = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: readChunkBytes })) {
    hash.update(chunk as Buffer);
    sizeBytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), sizeBytes };
}

export function hashBytes(bytes: Buffer): BlobRef {
  return { sha256: createHash('sha256').update(bytes).digest('hex'), sizeBytes: bytes.length };
}
