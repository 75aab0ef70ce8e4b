// A test file that asserts what a cache holds (a first probe that really plays) cannot share that
// cache with the files running beside it: another file may probe the same example pack between its
// clean-up and its first evaluation. It swaps the link `trl test` made to the run's shared folder
// (test/support/data-dir-per-file.mjs) for an empty folder of its own. Call it before the harness starts.
import { lstat, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { dataDir } from '../../common/data-layout.ts';
import { contentCacheFolders } from '../../common/content-cache-folders.ts';

export async function useOwnContentCache(cache: keyof typeof contentCacheFolders): Promise<string> {
  const folder = path.join(dataDir, contentCacheFolders[cache]);
  const existing = await lstat(folder).catch(() => undefined);
  // A link is removed, never followed: the shared folder and what other files wrote there stay.
  if (existing?.isSymbolicLink()) await rm(folder);
  await mkdir(folder, { recursive: true });
  return folder;
}
