// Writes an artifact file and returns its reference (path, sha256, size).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from './atomic-write.ts';
import type { ArtifactRef } from '../contracts/artifact.ts';

export async function writeArtifact(file: string, content: Buffer | string): Promise<ArtifactRef> {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  await writeFileAtomic(file, bytes);
  return { path: file, sha256: createHash('sha256').update(bytes).digest('hex'), sizeBytes: bytes.length };
}

/** The reference of a file already written in place (a log appended to as it happened). */
export async function describeArtifact(file: string): Promise<ArtifactRef> {
  const bytes = await readFile(file).catch(() => Buffer.alloc(0));
  return { path: file, sha256: createHash('sha256').update(bytes).digest('hex'), sizeBytes: bytes.length };
}
