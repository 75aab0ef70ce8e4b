// Write-then-rename: a reader (or a restart after a crash) sees the old file or the new one,
// never half of one. The temporary name is unique, so concurrent writers cannot share it.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function writeFileAtomic(
  file: string,
  content: string | Buffer,
  options: { mode?: number } = {},
): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, content, { flag: 'wx', mode: options.mode });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
