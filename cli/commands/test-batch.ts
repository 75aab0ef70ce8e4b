// The unit files of a `trl test` run share one process. Each file in a process of its own paid for
// Node, tsx and its imports again (zod, the contracts, the catalog…): `trl test` of the unit rooms
// took 296–331 CPU-s that way and 130–137 with the batch, the same 825 tests passing
// (docs/figures/test-suite.md). The suites under test/ (workers, containers, Temporal, restarts) keep a process each,
// and so do a file whose source
// carries `ownProcessMarker` (one that must change what a process has only one of) and a file with a
// top-level await: node:test finds a test's parent by the async context it is declared in, and the
// module's code after such an await no longer runs in its suite's (its tests landed elsewhere, or
// were refused as "its parent finished").
// In the batch each file is a suite named by its path, so the reporter and the recorded durations
// still speak of files. What a file's tests set in the environment, and node:test's global mocks, are
// put back after its suite, so they cannot reach the next file. (A file's imports all run when the
// batch loads, before any test: what a module does to the process on import is shared.)
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** A comment in a unit file that keeps it out of the batch, in a process of its own. */
export const ownProcessMarker = 'trl-test: own process';

/** The batch's file name inside the run's folder; the runner knows its suites are files by it. */
export const unitBatchFileName = 'unit-files.test.ts';

/** Files that may share the batch (outside test/, without the marker or a top-level await), and the rest, each list in
 * its given order. */
export async function splitBatchable(
  files: string[],
  root: string,
  read: (file: string) => Promise<string> = (file) => readFile(file, 'utf8'),
): Promise<{ batched: string[]; alone: string[] }> {
  const batched: string[] = [];
  const alone: string[] = [];
  for (const file of files) {
    const underTest = path.relative(root, path.resolve(root, file)).split(path.sep)[0] === 'test';
    const source = underTest ? '' : await read(path.resolve(root, file));
    if (underTest || source.includes(ownProcessMarker) || hasTopLevelAwait(source)) alone.push(file);
    else batched.push(file);
  }
  return { batched, alone };
}

/** A statement at the start of a line (the house style indents everything inside a function) that awaits. */
export function hasTopLevelAwait(source: string): boolean {
  return /^(?![\s/*]).*\bawait\b/m.test(source);
}

/** The batch's source: one suite per file, named by its path from root, that imports it and then restores what it
 * changed. */
export function unitBatchSource(files: string[], root: string): string {
  const lines = [
    '// Written by `trl test` (cli/commands/test-batch.ts): the unit files in one process, one suite each.',
    "import { after, before, describe, mock } from 'node:test';",
    'const isolated = (name, load) => describe(name, async () => {',
    '  let saved = {};',
    '  before(() => { saved = { ...process.env }; });',
    '  after(() => {',
    '    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];',
    '    Object.assign(process.env, saved);',
    '    mock.timers.reset();',
    '    mock.restoreAll();',
    '  });',
    '  await load();',
    '});',
  ];
  for (const file of files) {
    const name = path.relative(root, path.resolve(root, file));
    lines.push(
      `isolated(${JSON.stringify(name)}, () => import(${JSON.stringify(pathToFileURL(path.resolve(root, file)).href)}));`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Writes the batch into the run's folder and returns its path. */
export async function writeUnitBatch(runDir: string, files: string[], root: string): Promise<string> {
  const file = path.join(runDir, unitBatchFileName);
  await writeFile(file, unitBatchSource(files, root));
  return file;
}
