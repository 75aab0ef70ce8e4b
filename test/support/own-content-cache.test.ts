// A file's own cache: the link to the run's shared folder becomes an empty folder of the file's own,
// and what other files wrote in the shared folder stays where it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lstat, mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

test("the probe cache link is swapped for an empty folder of the file's own; the shared one is untouched", async () => {
  const run = await mkdtemp(path.join(os.tmpdir(), 'trl-own-cache-'));
  const own = path.join(run, 'files', 'probe.test.ts');
  const shared = path.join(run, 'probe-cache');
  await mkdir(own, { recursive: true });
  await mkdir(shared);
  await writeFile(path.join(shared, 'verdict.json'), '{"from":"another file"}');
  await symlink(shared, path.join(own, 'probe-cache'));
  // The layout reads the variable when first loaded, so the helper is imported after it is set.
  process.env.TRL_DATA_DIR = own;
  const { useOwnContentCache } = await import('./own-content-cache.ts');

  const folder = await useOwnContentCache('probe');
  assert.equal(folder, path.join(own, 'probe-cache'));
  assert.ok((await lstat(folder)).isDirectory() && !(await lstat(folder)).isSymbolicLink());
  assert.deepEqual(await readdir(folder), []);
  assert.equal(await readFile(path.join(shared, 'verdict.json'), 'utf8'), '{"from":"another file"}');
  // Called again (a second describe block), it keeps what the file itself has cached since.
  await writeFile(path.join(folder, 'mine.json'), '{}');
  await useOwnContentCache('probe');
  assert.deepEqual(await readdir(folder), ['mine.json']);
});
