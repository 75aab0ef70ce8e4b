// `trl test`: bootstrap what the tests need (Docker engine, base image, Temporal server, moto's S3 server), then run
// every *.test.ts with Node's built-in test runner. The browser checks (test/browser/, headless
// Chromium on the Temporal Web UI) run only with --browser: they install a browser and are slow. The
// fault-injection suite (test/faults/: it restarts dockerd and kills workers, about 30 minutes) runs
// only with `--faults`, and then alone; the production topology (test/topology/: Temporal's server
// on PostgreSQL, built from its Go module, with worker processes per role) only with `--topology`;
// the real-model suite (test/real-model/: a small open-weight model in llama-server, built from its
// PyPI source once, about 11 minutes on 2 cores) only with `--real-model`.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { repoRoot, testDataDir, testDurationsFile, testDurationsSeedFile } from '../../common/data-layout.ts';
import { createDockerClient } from '../../sandbox/docker-client.ts';
import { bootstrapForTests } from '../../infra/bootstrap.ts';
import { bundleWorkflows } from '../../workers/create-worker.ts';
import { renderTable } from '../render-table.ts';
import { orderTestFiles, readTestDurations } from './test-durations.ts';
import { splitBatchable, writeUnitBatch } from './test-batch.ts';
import { readSetting } from '../../common/settings/setting.ts';
import { machineSettings } from '../../common/settings/machine-settings.ts';
import { testRunnerSettings } from '../../common/settings/test-settings.ts';
import { stopProcessGroup } from '../../common/stop-process-group.ts';
import { setSessionNice } from '../../common/session-priority.ts';

/** The runner's session below the containers (common/session-priority.ts says why): nice 5 weighs about a third. */
const runnerSessionNice = 5;

/** How long a stopped run's files get to end on the signal before SIGKILL. */
const stopGraceMs = 5000;

const skippedFolders = new Set(['node_modules', '.cache', '.data', '.git', 'scenarios']);
export const faultSuiteDir = path.join(repoRoot, 'test', 'faults');

async function findTestFiles(dir: string, filter: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && !skippedFolders.has(entry.name))
      found.push(...(await findTestFiles(path.join(dir, entry.name), filter)));
    else if (entry.isFile() && entry.name.endsWith('.test.ts')) found.push(path.join(dir, entry.name));
  }
  return found.filter((file) => filter.length === 0 || filter.some((f) => file.includes(f))).sort();
}

export const browserSuiteDir = path.join(repoRoot, 'test', 'browser');
export const topologySuiteDir = path.join(repoRoot, 'test', 'topology');
export const realModelSuiteDir = path.join(repoRoot, 'test', 'real-model');

/** The suite's files: test/faults/ only with `faults` (and then alone), test/topology/ only with `topology` (alone
 * too), test/real-model/ only with `realModel` (alone too), test/browser/ only with `browser`. */
export function selectTestFiles(
  files: string[],
  faults: boolean,
  browser = false,
  topology = false,
  realModel = false,
): string[] {
  const inside = (file: string, dir: string) => file.startsWith(dir + path.sep);
  if (topology) return files.filter((file) => inside(file, topologySuiteDir));
  if (realModel) return files.filter((file) => inside(file, realModelSuiteDir));
  return files
    .filter((file) => !inside(file, topologySuiteDir) && !inside(file, realModelSuiteDir))
    .filter((file) => inside(file, faultSuiteDir) === faults)
    .filter((file) => faults || browser || !inside(file, browserSuiteDir));
}

export async function testCommand(options: {
  filter: string[];
  faults?: boolean;
  browser?: boolean;
  topology?: boolean;
  realModel?: boolean;
}): Promise<number> {
  // The suite's workflows go to a namespace of their own, never the user's (`trl up`'s Web UI, `trl runs`).
  const namespace = readSetting(testRunnerSettings, 'TRL_TEST_TEMPORAL_NAMESPACE');
  await bootstrapForTests(createDockerClient(), namespace);
  const selected = selectTestFiles(
    await findTestFiles(repoRoot, options.filter),
    options.faults ?? false,
    options.browser ?? false,
    options.topology ?? false,
    options.realModel ?? false,
  ).map((f) => path.relative(repoRoot, f));
  if (selected.length === 0) {
    process.stderr.write('trl: no test files matched\n');
    return 1;
  }
  const runDir = await mkdtemp(path.join(os.tmpdir(), 'trl-test-run-'));
  // The runner and its test files have a process group of their own; Ctrl-C or a TERM to trl is passed
  // on to all of them (the runner alone would leave its files running), then trl waits for the runner
  // to end and removes the run's folder (its unit batch and verifier results).
  // A file that handles the signal itself (a Temporal worker shuts down gracefully, waiting out a
  // running scenario) gets SIGKILL after the grace period: a stopped suite stops.
  let runner: ChildProcess | undefined;
  let stoppedBy: NodeJS.Signals | undefined;
  let stopping: Promise<void> | undefined;
  const passOn = (signal: NodeJS.Signals) => {
    stoppedBy = signal;
    if (runner?.pid === undefined || stopping) return;
    stopping = stopProcessGroup(runner.pid, { signal, graceMs: stopGraceMs });
  };
  process.on('SIGINT', passOn).on('SIGTERM', passOn);
  try {
    const files = await prepareRun(selected, runDir);
    // Node runs one file at a time on two cores (its default is cores − 1); the files mostly wait on
    // Docker and Temporal, so a few at once finish sooner. TRL_TEST_CONCURRENCY overrides; the
    // fault and topology suites run one file at a time (they restart shared services). Files start
    // longest first, by the last run's durations (test-durations.ts).
    const concurrency = options.faults || options.topology || options.realModel ? 1 : testConcurrency();
    // The workflow bundle built once, before the files start: each file that starts a worker then takes it from the
    // cache (workers/workflow-bundle-cache.ts) instead of building its own, about 3 s of CPU each. Only the suites under
    // test/ start workers; a run of other files skips the bundling.
    if (files.some((file) => file.startsWith(`test${path.sep}`))) await bundleWorkflows();
    // A run starts from an empty data directory: an earlier run's packs, seats and spend would be
    // seen by this one's checks (the pack store refuses the examples as near copies of an earlier
    // run's variants of them). The last run's files stay until the next, for whoever reads a
    // failure. A TRL_DATA_DIR set by the user is theirs: it is used as it is, never emptied.
    const ownDataDir = readSetting(machineSettings, 'TRL_DATA_DIR');
    const dataDir = ownDataDir ?? testDataDir;
    if (ownDataDir === undefined) await rm(testDataDir, { recursive: true, force: true });
    if (stoppedBy) return exitCodeOf(stoppedBy);
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        dataDirPerFile,
        '--import',
        leftoverHandles,
        testRunnerFile,
        String(concurrency),
        ...files,
      ],
      {
        cwd: repoRoot,
        stdio: 'inherit',
        detached: true,
        // Tests keep their own artifacts, pack store and ownership records, apart from real runs.
        env: {
          ...process.env,
          // The run's verifier results, reused across its files (verifiers/verifier-cache.ts); gone with the run.
          TRL_VERIFIER_CACHE_DIR: path.join(runDir, 'verifier-cache'),
          TRL_DATA_DIR: dataDir,
          TRL_TEMPORAL_NAMESPACE: namespace,
          TRL_QUIET: process.env.TRL_QUIET ?? '1',
          TRL_LOG_LEVEL: process.env.TRL_LOG_LEVEL ?? 'error',
        },
      },
    );
    runner = child;
    if (child.pid !== undefined) await setSessionNice(child.pid, runnerSessionNice);
    const code = await new Promise<number>((resolve) => child.on('close', (exit) => resolve(exit ?? 1)));
    if (stoppedBy) {
      await stopping;
      return exitCodeOf(stoppedBy);
    }
    printSlowestFiles(selected, await readTestDurations(testDurationsFile));
    return code;
  } finally {
    process.off('SIGINT', passOn).off('SIGTERM', passOn);
    await rm(runDir, { recursive: true, force: true });
  }
}

/** The run's files in the order they start: the unit files as one batch (test-batch.ts says why), ordered by their
 * summed figures. */
async function prepareRun(selected: string[], runDir: string): Promise<string[]> {
  const { batched, alone } = await splitBatchable(selected, repoRoot);
  const batch = batched.length > 1 ? await writeUnitBatch(runDir, batched, repoRoot) : undefined;
  // This machine's last figures, else the seed kept in git (a fresh clone's cache is empty).
  const durations = {
    ...(await readTestDurations(testDurationsSeedFile)),
    ...(await readTestDurations(testDurationsFile)),
  };
  if (batch) durations[batch] = batched.reduce((sum, file) => sum + (durations[file] ?? 0), 0);
  return orderTestFiles(batch ? [...alone, batch] : selected, durations);
}

/** The shell's convention for a process ended by a signal: 128 + its number. */
function exitCodeOf(signal: NodeJS.Signals): number {
  return 128 + (os.constants.signals[signal] ?? 15);
}

const testRunnerFile = path.join(import.meta.dirname, 'test-runner.ts');
// Given to the runner, whose files inherit it: each file's own data directory (that module says why).
const dataDirPerFile = path.join(repoRoot, 'test', 'support', 'data-dir-per-file.mjs');
// And this one: a file still alive a minute after its last test fails instead of holding the run (that module says why).
const leftoverHandles = path.join(repoRoot, 'test', 'support', 'leftover-handles.mjs');

/** The run's five longest files, so whoever waits on the suite sees where the time went. */
function printSlowestFiles(files: string[], durations: Record<string, number>): void {
  const rows = files
    .filter((file) => durations[file] !== undefined)
    .map((file) => ({ file, seconds: durations[file]! }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, 5);
  if (rows.length === 0) return;
  process.stderr.write(`\nthe longest test files (all durations: ${path.relative(repoRoot, testDurationsFile)}):\n`);
  process.stderr.write(
    `${renderTable(
      [
        { header: 'file', value: (r) => r.file },
        { header: 's', value: (r) => r.seconds.toFixed(1), align: 'right' },
      ],
      rows,
    )}\n`,
  );
}

/** Test files run at once: TRL_TEST_CONCURRENCY (1–16), else 4. */
export function testConcurrency(env: NodeJS.ProcessEnv = process.env): number {
  return readSetting(testRunnerSettings, 'TRL_TEST_CONCURRENCY', env);
}
