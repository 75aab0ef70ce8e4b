// A registry tape on disk: what a rehearsal of a scenario's tests fetched from the package registries,
// one folder per scenario version and image. `tape.json` maps each request (method, URL, Accept) to
// the recorded status, a few headers and the body's sha256; bodies live in `blobs/<sha256>`, so a body
// fetched twice is stored once. A replay serves from these files only.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

export const tapeEntrySchema = z.object({
  status: z.number().int(),
  headers: z.record(z.string(), z.string()),
  bodySha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().nonnegative(),
});
export type TapeEntry = z.infer<typeof tapeEntrySchema>;

export const tapeSchema = z.object({
  version: z.literal(1),
  /** Key: requestKey(...). */
  entries: z.record(z.string(), tapeEntrySchema),
  /** Requests the rehearsal's proxy refused (a host off the list, a method other than GET, a bound). */
  refused: z.array(z.string()),
  recordedAt: z.string(),
});
export type Tape = z.infer<typeof tapeSchema>;

/** Headers kept with a response: what a client needs to use the body (not dates, cookies or caching). */
export const keptResponseHeaders = ['content-type', 'location', 'content-disposition', 'last-modified', 'etag'];

/** The key of a request on the tape: the URL and the Accept header (PyPI's simple API answers JSON or HTML by it). */
export function requestKey(method: string, url: string, accept: string | undefined): string {
  return `${method} ${url} ${(accept ?? '').replace(/\s+/g, ' ').trim()}`;
}

export function tapeFile(dir: string): string {
  return path.join(dir, 'tape.json');
}

export function blobPath(dir: string, sha256: string): string {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
  return path.join(dir, 'blobs', sha256);
}

export async function readTape(dir: string): Promise<Tape | undefined> {
  const text = await readFile(tapeFile(dir), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const parsed = tapeSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : undefined;
}

/** Written last and atomically: a folder without tape.json is a rehearsal that did not finish. */
export async function writeTape(dir: string, tape: Tape): Promise<void> {
  await mkdir(dir, { recursive: true });
  const temporary = `${tapeFile(dir)}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(tape, null, 1)}\n`);
  await rename(temporary, tapeFile(dir));
}

export function sha256Of(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}
