// `trl test` stopped by a signal: its runner and test files stop with it, and its run folder (the
// workflow bundle, the unit batch) does not stay behind in the temporary folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../common/data-layout.ts';
import { processAlive } from '../../common/process-alive.ts';
import { waitFor } from '../support/worker-process.ts';

test('a TERM to `trl test` stops its test files, even one that handles TERM itself, exits 143 and leaves no run folder', async () => {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'trl-signal-tmp-'));
  // A test file of its own, found by the inner run's filter; the outer run listed its files before it existed.
  const fixtureDir = path.join(repoRoot, `signal-fixture-${process.pid}`);
  const marker = path.join(tmp, 'started');
  await mkdir(fixtureDir, { recursive: true });
  // `c` handles TERM itself and goes on, as a file with a Temporal worker mid-scenario does (the
  // worker's runtime turns TERM into a graceful shutdown that waits for the running activity).
  for (const name of ['a', 'b', 'c']) {
    await writeFile(
      path.join(fixtureDir, `${name}.test.ts`),
      [
        "import { test } from 'node:test';",
        "import { appendFileSync } from 'node:fs';",
        name === 'c' ? "process.on('SIGTERM', () => undefined);" : '',
        `test('waits', async () => { appendFileSync(${JSON.stringify(marker)}, process.pid + '\\n'); await new Promise((resolve) => setTimeout(resolve, 120_000)); });`,
      ].join('\n'),
    );
  }
  try {
    const trl = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(repoRoot, 'cli', 'main.ts'), 'test', path.basename(fixtureDir) + path.sep],
      {
        cwd: repoRoot,
        stdio: ['ignore', 'ignore', 'pipe'],
        // Its own data folder (a run without one empties the shared .data/test/) and temporary folder.
        // Not NODE_TEST_CONTEXT: the runner would take itself for a test file's and run nothing.
        env: {
          ...Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'NODE_TEST_CONTEXT')),
          TMPDIR: tmp,
          TRL_DATA_DIR: path.join(tmp, 'data'),
          TRL_TEST_CONCURRENCY: '3',
        },
      },
    );
    let stderr = '';
    trl.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    const exited = new Promise<number | null>((resolve) => trl.on('close', (code) => resolve(code)));
    const pids = await waitFor(
      async () => {
        const text = await readFile(marker, 'utf8').catch(() => '');
        const started = text.trim() ? text.trim().split('\n').map(Number) : [];
        return started.length === 3 ? started : undefined;
      },
      120_000,
      'the test file to start',
    );
    assert.ok(
      (await readdir(tmp)).some((name) => name.startsWith('trl-test-run-')),
      'the run folder exists while the run does',
    );

    trl.kill('SIGTERM');
    assert.equal(await exited, 143, stderr);
    assert.deepEqual(
      (await readdir(tmp)).filter((name) => name.startsWith('trl-test-run-')),
      [],
    );
    await waitFor(async () => (pids.some(processAlive) ? undefined : true), 10_000, 'the test files to end');
  } finally {
    await rm(fixtureDir, { recursive: true, force: true });
    await rm(tmp, { recursive: true, force: true });
  }
});
