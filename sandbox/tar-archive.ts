// Tar archives in memory: build contexts, uploads into containers, and outputs copied out of them.
import { readdir, readFile, lstat } from 'node:fs/promises';
import path from 'node:path';
import tar from 'tar-stream';

export interface ArchiveFile {
  /** Path inside the archive, relative, forward slashes. */
  name: string;
  content: Buffer;
  mode?: number;
}

export async function listFilesRecursively(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(relative: string): Promise<void> {
    const entries = await readdir(path.join(dir, relative), { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile()) out.push(child);
      // Symlinks and special files in scenario folders are skipped on purpose.
    }
  }
  await walk('');
  return out;
}

export async function readDirectoryAsFiles(dir: string, prefix = ''): Promise<ArchiveFile[]> {
  const files: ArchiveFile[] = [];
  for (const relative of await listFilesRecursively(dir)) {
    const full = path.join(dir, relative);
    const stat = await lstat(full);
    files.push({
      name: prefix ? `${prefix}/${relative}` : relative,
      content: await readFile(full),
      mode: stat.mode & 0o777,
    });
  }
  return files;
}

/** Packs files into a tar buffer with fixed owner/time so identical inputs give identical bytes. */
export async function packFiles(
  files: ArchiveFile[],
  owner: { uid: number; gid: number } = { uid: 0, gid: 0 },
  options: { directoryEntries?: boolean } = {},
): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pack.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
    pack.on('end', () => resolve(Buffer.concat(chunks)));
    pack.on('error', reject);
  });
  const directories = new Set<string>();
  for (const file of files) {
    const parts = file.name.split('/');
    for (let i = 1; options.directoryEntries !== false && i < parts.length; i++) {
      const dirName = parts.slice(0, i).join('/');
      if (directories.has(dirName)) continue;
      directories.add(dirName);
      pack.entry({
        name: `${dirName}/`,
        type: 'directory',
        mode: 0o755,
        uid: owner.uid,
        gid: owner.gid,
        mtime: new Date(0),
      });
    }
    pack.entry(
      { name: file.name, mode: file.mode ?? 0o644, uid: owner.uid, gid: owner.gid, mtime: new Date(0) },
      file.content,
    );
  }
  pack.finalize();
  return done;
}

export async function packDirectory(dir: string, prefix = '', owner?: { uid: number; gid: number }): Promise<Buffer> {
  return packFiles(await readDirectoryAsFiles(dir, prefix), owner);
}

export interface ExtractedEntry {
  name: string;
  type: string;
  size: number;
  mode: number;
  linkname?: string;
  content?: Buffer;
}

/** What one entry costs in an archive: its 512-byte header plus its content padded to 512 bytes. */
export function tarEntryBytes(contentBytes: number): number {
  return 512 + Math.ceil(contentBytes / 512) * 512;
}

/** Default bound on the number of entries read from one archive (150 k empty files must not pass). */
export const defaultMaxTarEntries = 20_000;

/**
 * Reads a tar stream fully, refusing more than maxBytes of archive (headers and padded content,
 * so many empty files count) or more than maxEntries entries. Every stream error — the source's,
 * the extractor's, an entry body's — settles the promise once; the source is destroyed on failure.
 */
export async function readTarEntries(
  stream: NodeJS.ReadableStream,
  maxBytes: number,
  maxEntries = defaultMaxTarEntries,
): Promise<ExtractedEntry[]> {
  const extract = tar.extract();
  const entries: ExtractedEntry[] = [];
  let total = 0;
  let settled = false;
  return new Promise((resolve, reject) => {
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      stream.unpipe?.(extract as unknown as NodeJS.WritableStream);
      (stream as { destroy?: () => void }).destroy?.();
      extract.destroy();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    extract.on('entry', (header, body, next) => {
      body.on('error', fail);
      if (entries.length >= maxEntries) {
        fail(new TarTooLargeError(maxBytes, maxEntries, 'entries'));
        return;
      }
      total += 512;
      const chunks: Buffer[] = [];
      let contentBytes = 0;
      body.on('data', (data: unknown) => {
        if (settled) return;
        const chunk = data as Buffer;
        contentBytes += chunk.length;
        if (total + tarEntryBytes(contentBytes) - 512 > maxBytes) {
          fail(new TarTooLargeError(maxBytes, maxEntries, 'bytes'));
          return;
        }
        chunks.push(chunk);
      });
      body.on('end', () => {
        if (settled) return;
        total += tarEntryBytes(contentBytes) - 512;
        if (total > maxBytes) {
          fail(new TarTooLargeError(maxBytes, maxEntries, 'bytes'));
          return;
        }
        entries.push({
          name: header.name,
          type: header.type ?? 'file',
          size: header.size ?? 0,
          mode: header.mode ?? 0o644,
          linkname: header.linkname ?? undefined,
          content: header.type === 'file' || header.type === undefined ? Buffer.concat(chunks) : undefined,
        });
        next();
      });
      body.resume();
    });
    extract.on('finish', () => {
      if (settled) return;
      settled = true;
      resolve(entries);
    });
    extract.on('error', fail);
    stream.on('error', fail);
    stream.pipe(extract as unknown as NodeJS.WritableStream);
  });
}

export class TarTooLargeError extends Error {
  constructor(
    readonly maxBytes: number,
    readonly maxEntries: number = defaultMaxTarEntries,
    readonly bound: 'bytes' | 'entries' = 'bytes',
  ) {
    super(
      bound === 'entries'
        ? `archive holds more than ${maxEntries} entries`
        : `archive holds more than ${maxBytes} bytes`,
    );
    this.name = 'TarTooLargeError';
  }
}
