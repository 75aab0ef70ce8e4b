// A scenario's content hash: sha256 over every file of its folder (relative path, size, bytes), in
// sorted order. Two runs may share a scenario's result only when this hash is the same.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

async function filesUnder(root: string, relative = ''): Promise<string[]> {
  const entries = await readdir(path.join(root, relative), { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const child = path.posix.join(relative, entry.name);
    if (entry.isDirectory()) files.push(...(await filesUnder(root, child)));
    else if (entry.isFile()) files.push(child);
    // Symlinks and special files are not part of a scenario (the image build does not follow them either).
  }
  return files;
}

export async function scenarioContentHash(dir: string): Promise<string> {
  const hash = createHash('sha256');
  for (const file of await filesUnder(dir)) {
    const bytes = await readFile(path.join(dir, file));
    hash.update(`${file}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest('hex');
}
