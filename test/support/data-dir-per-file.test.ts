// The preload that gives each test file its own data directory: its folder names are the layout's,
// and a file run with it really gets its own directory with the caches linked to the run's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { contentCacheFolders } from '../../common/content-cache-folders.ts';
import { repoRoot } from '../../common/data-layout.ts';

const preload = path.join(import.meta.dirname, 'data-dir-per-file.mjs');
const { sharedCacheFolders, dataDirOfFile } = (await import(preload)) as {
  sharedCacheFolders: string[];
  dataDirOfFile: (run: string, file: string, cwd: string) => string;
};

test('the shared folders are the content-keyed caches of the layout', () => {
  assert.deepEqual([...sharedCacheFolders].sort(), Object.values(contentCacheFolders).sort());
});

test("a test file run with the preload sees a data directory of its own, with the caches linked to the run's", async () => {
  const run = await mkdtemp(path.join(os.tmpdir(), 'trl-per-file-'));
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'trl-per-file-src-')), 'probe.test.ts');
  await writeFile(file, 'console.log(process.env.TRL_DATA_DIR);\n');
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--import', preload, file], {
    cwd: repoRoot,
    env: { ...process.env, TRL_DATA_DIR: run },
  });
  const own = stdout.trim();
  assert.equal(own, dataDirOfFile(run, file, repoRoot));
  assert.ok(own.startsWith(path.join(run, 'files') + path.sep), own);
  for (const folder of sharedCacheFolders) assert.equal(await readlink(path.join(own, folder)), path.join(run, folder));
});

test("a file outside the working folder (the unit batch, written into the run's temporary folder) is named by its file name alone", () => {
  assert.equal(
    dataDirOfFile('/run', '/tmp/trl-test-run-x/unit-files.test.ts', '/repo'),
    path.join('/run', 'files', 'unit-files.test.ts'),
  );
  assert.equal(
    dataDirOfFile('/run', '/repo/gateway/meter.test.ts', '/repo'),
    path.join('/run', 'files', 'gateway_meter.test.ts'),
  );
});
