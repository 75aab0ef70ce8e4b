// Preloaded (`--import`) into each test file's process by `trl test`: the file gets a data directory
// of its own inside the run's TRL_DATA_DIR, named after the file, so no file sees the packs, seats or
// spend another stored, whatever order they run in. (The pack store's near-copy check refused one
// file's pack as a copy of what another file had committed, but only when that file ran first.)
// The caches keyed by content stay shared through links, so a pack probed by one file is not probed
// again by the next. Runs before the file's own imports: common/data-layout.ts reads the variable
// when first loaded, so this module must not load it.
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { contentCacheFolders } from '../../common/content-cache-folders.ts';

const runDataDir = process.env.TRL_DATA_DIR;
const file = process.argv[1];
if (runDataDir && file?.endsWith('.test.ts')) {
  const own = path.join(runDataDir, 'files', path.relative(process.cwd(), file).replace(/[^A-Za-z0-9._-]+/g, '_'));
  mkdirSync(own, { recursive: true });
  for (const folder of Object.values(contentCacheFolders)) {
    const shared = path.join(runDataDir, folder);
    mkdirSync(shared, { recursive: true });
    try {
      symlinkSync(shared, path.join(own, folder));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  process.env.TRL_DATA_DIR = own;
}
