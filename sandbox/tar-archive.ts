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
    files.push({ name: prefix ? `${prefix}/${relative}` : relative, content: await readFile(full), mode: stat.mode & 0o777 });
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
      pack.entry({ name: `${dirName}/`, type: 'directory', mode: 0o755, uid: owner.uid, gid: owner.gid, mtime: new Date(0) });
    }
    pack.entry({ name: file.name, mode: file.mode ?? 0o644, uid: owner.uid, gid: owner.gid, mtime: new Date(0) }, file.content);
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

/** Reads a tar stream fully, refusing to buffer more than maxBytes of file content. */
export async function readTarEntries(stream: NodeJS.ReadableStream, maxBytes: number): Promise<ExtractedEntry[]> {
  const extract = tar.extract();
  const entries: ExtractedEntry[] = [];
  let total = 0;
  return new Promise((resolve, reject) => {
    extract.on('entry', (header, body, next) => {
      const chunks: Buffer[] = [];
      body.on('data', (data: unknown) => {
        const chunk = data as Buffer;
        total += chunk.length;
        if (total > maxBytes) {
          extract.destroy(new TarTooLargeError(maxBytes));
          return;
        }
        chunks.push(chunk);
      });
      body.on('end', () => {
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
    extract.on('finish', () => resolve(entries));
    extract.on('error', reject);
    stream.on('error', reject);
    stream.pipe(extract as unknown as NodeJS.WritableStream);
  });
}

export class TarTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`archive holds more than ${maxBytes} bytes`);
    this.name = 'TarTooLargeError';
  }
}
