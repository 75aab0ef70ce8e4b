// Preloaded (`--import`) into each test file's process by `trl test`: the file gets a data directory
// of its own inside the run's TRL_DATA_DIR, named after the file, so no file sees the packs, seats or
// spend another stored, whatever order they run in. (The pack store's near-copy check refused one
// file's pack as a copy of what another file had committed, but only when that file ran first.)
// The caches keyed by content stay shared through links, so a pack probed by one file is not probed
// again by the next. It runs before the file's own imports (common/data-layout.ts reads the variable
// when first loaded) and in the threads the file starts, so it is plain JavaScript: tsx's loader is
// not in place yet there. Its folder names are common/content-cache-folders.ts's (a test holds them equal).
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';

export const sharedCacheFolders = ['judge-cache', 'probe-cache'];

/** The file's own data directory inside the run's, named after its path (its name alone when it is outside cwd, as the
 * unit batch is). */
export function dataDirOfFile(runDataDir, file, cwd) {
  const relative = path.relative(cwd, file);
  const name = relative.startsWith('..') || path.isAbsolute(relative) ? path.basename(file) : relative;
  return path.join(runDataDir, 'files', name.replace(/[^A-Za-z0-9._-]+/g, '_'));
}

const runDataDir = process.env.TRL_DATA_DIR;
const file = process.argv[1];
if (isMainThread && runDataDir && file?.endsWith('.test.ts')) {
  const own = dataDirOfFile(runDataDir, file, process.cwd());
  mkdirSync(own, { recursive: true });
  for (const folder of sharedCacheFolders) {
    const shared = path.join(runDataDir, folder);
    mkdirSync(shared, { recursive: true });
    try {
      symlinkSync(shared, path.join(own, folder));
    } catch (error) {
      if (error?.code !== 'EEXIST') throw error;
    }
  }
  process.env.TRL_DATA_DIR = own;
}
