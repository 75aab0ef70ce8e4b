// Public tasks as they are published, measured: a seeded random sample of tasks with solutions from
// public task repositories (git directories, e.g. the search tool's fetched snapshots), copied to a
// scratch folder outside the repo (third-party content is never committed), imported with
// `trl import-tasks`, each image built cold with its time, then a table of the `trl eval` results.
//
//   node --import tsx bench/public-tasks.ts sample SCRATCH --seed 39 --per-repo 6 GITDIR...
//   node --import tsx bench/public-tasks.ts build SCRATCH [--parallel 2]
//   node --import tsx bench/public-tasks.ts eval SCRATCH   (oracle and null, as trl eval --scenarios-dir runs them)
//   node --import tsx bench/public-tasks.ts run SCRATCH [--task-timeout-sec 1500]
//       task by task, resumable: cold build (timed), then the oracle and the null agent on that task alone,
//       each result written to SCRATCH/results/<task>.json as soon as it is known (a task past its timeout
//       is cancelled and recorded as such); a task whose runner is gone is run again, and with --retry
//       so is a task the infrastructure decided (an engine failure, a run past the timeout); --only A,B
//       runs just those tasks, again whatever their records say (each old record kept beside as <task>.<time>.prev)
//   node --import tsx bench/public-tasks.ts table SCRATCH
//
// Folders under `ci_checks/` are negative fixtures of a task-QC tool (tasks built to fail a check), not
// tasks, and are not drawn.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { importTerminalBenchTasks } from '../catalog/import-terminal-bench.ts';
import { loadScenario } from '../catalog/load-scenario.ts';
import { ensureBaseImage } from '../infra/base-image.ts';
import { createDockerClient } from '../sandbox/docker-client.ts';
import { ensureScenarioImage } from '../sandbox/scenario-image.ts';
import { SeededRandom } from '../scoring/seeded-random.ts';
import type { ScenarioResult } from '../contracts/results.ts';
import { startEvaluation } from '../cli/client/start-evaluation.ts';
import { startHarness, uniqueId } from '../test/support/evaluation-harness.ts';
import { examplePackDir } from '../test/support/fixture-packs.ts';
import { decidedByTask, table, type BuildRecord, type Candidate, type TaskRecord } from './public-tasks-table.ts';

function git(gitDir: string, args: string[]): string {
  return execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

/** Task folders with a solution: Harbor (task.toml + solution/solve.sh) or TB1 (task.yaml + solution.sh/.yaml). */
function candidatesOf(gitDir: string, repo: string): Candidate[] {
  const files = new Set(git(gitDir, ['ls-tree', '-r', '--name-only', 'HEAD']).split('\n'));
  const out: Candidate[] = [];
  for (const file of files) {
    const folder = path.posix.dirname(file);
    if (folder.split('/').includes('ci_checks')) continue;
    if (file.endsWith('/task.toml') && files.has(`${folder}/solution/solve.sh`))
      out.push({ repo, folder, format: 'harbor' });
    if (
      file.endsWith('/task.yaml') &&
      (files.has(`${folder}/solution.sh`) || files.has(`${folder}/solution.yaml`)) &&
      files.has(`${folder}/Dockerfile`)
    )
      out.push({ repo, folder, format: 'tb1' });
  }
  return out.sort((a, b) => a.folder.localeCompare(b.folder));
}

function repoName(gitDir: string): string {
  // /work/.mirror/owner+name/repo → owner/name
  const parts = path.resolve(gitDir).split(path.sep);
  const named = parts.find((part) => part.includes('+'));
  return named ? named.replace('+', '/') : path.basename(path.dirname(path.resolve(gitDir)));
}

function taskId(candidate: Candidate): string {
  return `${candidate.repo.split('/')[1]}--${path.posix.basename(candidate.folder)}`
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-');
}

async function sample(scratch: string, seed: number, perRepo: number, gitDirs: string[]): Promise<void> {
  await mkdir(scratch, { recursive: true });
  const random = new SeededRandom(BigInt(seed));
  const drawn: (Candidate & { id: string })[] = [];
  const lines: string[] = [];
  const unavailable: string[] = [];
  for (const gitDir of gitDirs) {
    const repo = repoName(gitDir);
    const candidates = candidatesOf(gitDir, repo);
    for (const candidate of candidates) lines.push(`${repo}\t${candidate.format}\t${candidate.folder}`);
    // Fisher–Yates with the seeded generator: the same seed and candidates draw the same sample.
    const shuffled = [...candidates];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = random.nextInt(i + 1);
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    // In draw order until perRepo are taken; a task whose files the snapshot lacks (its largest blobs
    // may be absent) is listed and passed over: the sample is of tasks this machine can read.
    let taken = 0;
    for (const candidate of shuffled) {
      if (taken >= perRepo) break;
      // Two folders of one repository with the same name (a task and its copy elsewhere) keep apart by their parent.
      let id = taskId(candidate);
      if (drawn.some((other) => other.id === id))
        id = taskId({ ...candidate, folder: candidate.folder.split('/').slice(-2).join('-') });
      const raw = path.join(scratch, 'raw', id);
      await rm(raw, { recursive: true, force: true });
      let archive: Buffer;
      try {
        archive = execFileSync('git', ['--git-dir', gitDir, 'archive', 'HEAD', candidate.folder], {
          maxBuffer: 512 * 1024 * 1024,
          stdio: ['ignore', 'pipe', 'ignore'],
        });
      } catch {
        unavailable.push(`${repo}\t${candidate.folder}`);
        continue;
      }
      await mkdir(raw, { recursive: true });
      execFileSync('tar', ['-x', '-C', raw, `--strip-components=${candidate.folder.split('/').length}`], {
        input: archive,
      });
      drawn.push({ ...candidate, id });
      taken += 1;
    }
  }
  await writeFile(path.join(scratch, 'candidates.tsv'), `repo\tformat\tfolder\n${lines.join('\n')}\n`);
  await writeFile(
    path.join(scratch, 'sample.json'),
    JSON.stringify({ seed, perRepo, drawn, unavailable }, null, 2) + '\n',
  );
  const imported = await importTerminalBenchTasks(path.join(scratch, 'raw'), path.join(scratch, 'tasks'));
  await writeFile(path.join(scratch, 'import.json'), JSON.stringify(imported, null, 2) + '\n');
  process.stdout.write(
    `${drawn.length} tasks drawn (seed ${seed}) from ${lines.length} candidates in ${gitDirs.length} repositories; ` +
      `${imported.filter((t) => t.status === 'imported').length} imported into ${path.join(scratch, 'tasks')}\n`,
  );
}

async function build(scratch: string, parallel: number, reverse: boolean): Promise<void> {
  const docker = createDockerClient();
  const base = await ensureBaseImage(docker);
  const tasksDir = path.join(scratch, 'tasks');
  const names = (await readdir(tasksDir)).sort();
  if (reverse) names.reverse();
  // A second builder may work from the other end (--reverse): each keeps its own record file.
  const recordFile = path.join(scratch, reverse ? 'build-reverse.json' : 'build.json');
  const records: BuildRecord[] = [];
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++]!;
      const dir = path.join(tasksDir, name);
      if (existsSync(path.join(scratch, 'builds', name))) continue;
      await mkdir(path.join(scratch, 'builds', name), { recursive: true });
      const started = performance.now();
      try {
        await loadScenario(dir);
        await ensureScenarioImage(docker, base, { name, dir });
        records.push({ name, ok: true, seconds: (performance.now() - started) / 1000 });
      } catch (error) {
        const reason = (error as Error).message.split('\n').filter(Boolean).slice(-3).join(' ⏎ ').slice(-400);
        records.push({ name, ok: false, reason, seconds: (performance.now() - started) / 1000 });
      }
      const last = records.at(-1)!;
      process.stdout.write(
        `${last.ok ? 'built ' : 'FAILED'} ${name} ${last.seconds.toFixed(0)}s${last.reason ? ` ${last.reason}` : ''}\n`,
      );
      await writeFile(recordFile, JSON.stringify(records, null, 2) + '\n');
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

/**
 * The oracle and the null agent on every task, as `trl eval --scenarios-dir SCRATCH/tasks --agent X`
 * runs them, but on a task queue of its own: `trl eval`'s fixed queue is shared by every checkout
 * polling the same Temporal server.
 */
async function evaluate(scratch: string, agents: ('oracle' | 'null')[]): Promise<void> {
  const harness = await startHarness();
  try {
    const pack = { kind: 'directory' as const, path: examplePackDir };
    const scenariosDir = path.join(scratch, 'tasks');
    // One after the other: the null run then finds every image the oracle run built.
    const runs: string[] = [];
    for (const agent of agents)
      runs.push(
        await (async () => {
          const started = performance.now();
          const result = await harness.evaluate({
            submissionId: uniqueId(`public-${agent}`),
            pack,
            agent,
            scenariosDir,
          });
          await writeFile(path.join(scratch, `${agent}.json`), JSON.stringify(result, null, 2) + '\n');
          return `${agent}: ${result.status}, ${result.testsPassed}/${result.testsTotal} in ${((performance.now() - started) / 1000).toFixed(0)} s`;
        })(),
      );
    process.stdout.write(runs.join('\n') + '\n');
  } finally {
    await harness.close();
  }
}

/** Task by task, resumable: each task's record is written as soon as it is known. */
async function runEach(
  scratch: string,
  taskTimeoutSec: number,
  parallel: number,
  reverse: boolean,
  retry: boolean,
  only: string[],
): Promise<void> {
  const docker = createDockerClient();
  const base = await ensureBaseImage(docker);
  const harness = await startHarness();
  const tasksDir = path.join(scratch, 'tasks');
  const resultsDir = path.join(scratch, 'results');
  await mkdir(resultsDir, { recursive: true });
  const names = (await readdir(tasksDir)).filter((name) => !only.length || only.includes(name)).sort();
  // A second runner may work from the other end (--reverse); a task another runner has started is skipped.
  if (reverse) names.reverse();
  const pack = { kind: 'directory' as const, path: examplePackDir };
  let next = 0;
  const one = async (name: string) => {
    const dir = path.join(tasksDir, name);
    const started = performance.now();
    let build: BuildRecord;
    try {
      await loadScenario(dir);
      await withTimeout(ensureScenarioImage(docker, base, { name, dir }), taskTimeoutSec, 'build');
      build = { name, ok: true, seconds: (performance.now() - started) / 1000 };
    } catch (error) {
      const reason = (error as Error).message.split('\n').filter(Boolean).slice(-3).join(' ⏎ ').slice(-400);
      build = { name, ok: false, reason, seconds: (performance.now() - started) / 1000 };
    }
    const record: TaskRecord = { name, build };
    for (const agent of ['oracle', 'null'] as const) {
      const handle = await startEvaluation(
        harness.client,
        { submissionId: uniqueId(`public-${agent}`), pack, agent, scenariosDir: tasksDir, scenarios: [name] },
        harness.taskQueue,
      );
      try {
        const result = await withTimeout(handle.result(), taskTimeoutSec, agent);
        record[agent] = result.perScenario.find((p) => p.name === name);
      } catch (error) {
        (record.timedOut ??= []).push(`${agent}: ${(error as Error).message.slice(0, 200)}`);
        await handle.cancel().catch(() => undefined);
      }
    }
    await writeFile(path.join(resultsDir, `${name}.json`), JSON.stringify(record, null, 2) + '\n');
    const show = (s?: ScenarioResult) => (s ? `${s.status} ${s.testsPassed}/${s.testsTotal}` : '—');
    process.stdout.write(
      `${name}: build ${build.ok ? 'ok' : 'FAILED'} ${build.seconds.toFixed(0)}s, oracle ${show(record.oracle)}, null ${show(record.null)}\n`,
    );
  };
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++]!;
      if (only.length) await setRecordAside(resultsDir, name);
      if (!(await shouldRun(resultsDir, name, retry))) continue;
      await writeFile(path.join(resultsDir, `${name}.started`), `${process.pid}\n`);
      await one(name).catch((error: Error) => process.stdout.write(`${name}: ${error.message}\n`));
    }
  };
  try {
    await Promise.all(Array.from({ length: parallel }, worker));
  } finally {
    await harness.close();
  }
}

/** Moves a task's record out of the way (kept as `<task>.<time>.prev`) so that the task runs again. */
async function setRecordAside(resultsDir: string, name: string): Promise<void> {
  const recordFile = path.join(resultsDir, `${name}.json`);
  if (!existsSync(recordFile)) return;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  await rename(recordFile, path.join(resultsDir, `${name}.${stamp}.prev`));
}

/** A task still to run: no record and no live runner on it, or (with --retry) a record the infrastructure decided. */
async function shouldRun(resultsDir: string, name: string, retry: boolean): Promise<boolean> {
  const recordFile = path.join(resultsDir, `${name}.json`);
  if (existsSync(recordFile)) {
    if (!retry) return false;
    const record = JSON.parse(await readFile(recordFile, 'utf8')) as TaskRecord;
    return !decidedByTask(record);
  }
  const startedFile = path.join(resultsDir, `${name}.started`);
  if (!existsSync(startedFile)) return true;
  // Started by a runner that is gone (stopped, crashed): run it again.
  return !processAlive(Number((await readFile(startedFile, 'utf8')).trim()));
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function withTimeout<T>(work: Promise<T>, seconds: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} past the task timeout of ${seconds} s`)), seconds * 1000);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

const [command, ...rest] = process.argv.slice(2);
const { values, positionals } = parseArgs({
  args: rest,
  allowPositionals: true,
  options: {
    seed: { type: 'string', default: '39' },
    'per-repo': { type: 'string', default: '6' },
    parallel: { type: 'string', default: '2' },
    reverse: { type: 'boolean', default: false },
    retry: { type: 'boolean', default: false },
    only: { type: 'string', default: '' },
    agents: { type: 'string', default: 'oracle,null' },
    'task-timeout-sec': { type: 'string', default: '1500' },
  },
});
const [scratch, ...gitDirs] = positionals;
if (!scratch) throw new Error('usage: public-tasks.ts sample|build|table SCRATCH [GITDIR...]');
if (command === 'sample') await sample(path.resolve(scratch), Number(values.seed), Number(values['per-repo']), gitDirs);
else if (command === 'build') await build(path.resolve(scratch), Number(values.parallel), values.reverse!);
else if (command === 'eval') await evaluate(path.resolve(scratch), values.agents!.split(',') as ('oracle' | 'null')[]);
else if (command === 'run')
  await runEach(
    path.resolve(scratch),
    Number(values['task-timeout-sec']),
    Number(values.parallel),
    values.reverse!,
    values.retry!,
    values.only!.split(',').filter(Boolean),
  );
else if (command === 'table') await table(path.resolve(scratch));
else throw new Error(`unknown command ${command}`);
