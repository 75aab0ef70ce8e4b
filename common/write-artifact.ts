// Writes an artifact file and returns its reference (path, sha256, size).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { writeFileAtomic } from './atomic-write.ts';
import type { ArtifactRef } from '../contracts/artifact.ts';

export async function writeArtifact(file: string, content: Buffer | string): Promise<ArtifactRef> {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  await writeFileAtomic(file, bytes);
  return { path: file, sha256: createHash('sha256').update(bytes).digest('hex'), sizeBytes: bytes.length };
}

/**
 * The reference of a file already written in place (a log appended to as it happened). Hashed by
 * streaming, so a file of any size (past the 2 GiB a Buffer can hold) gets its real hash and size;
 * a file that was never written is the empty artifact.
 */
export async function describeArtifact(file: string): Promise<ArtifactRef> {
  const hash = createHash('sha256');
  let sizeBytes = 0;
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
      hash.update(chunk as Buffer);
      sizeBytes += (chunk as Buffer).length;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return { path: file, sha256: hash.digest('hex'), sizeBytes };
}
