// The table of bench/public-tasks.ts: what each step wrote under SCRATCH (the drawn sample, imports,
// cold builds, whole-sample evaluations, per-task `run` records) read back into one table per task,
// with each refusal classed as the issue allows.
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { ImportedTask } from '../catalog/import-terminal-bench.ts';
import type { EvaluationResult, ScenarioResult } from '../contracts/results.ts';

export interface Candidate {
  repo: string;
  /** The task folder inside the repository. */
  folder: string;
  format: 'harbor' | 'tb1';
}

export interface BuildRecord {
  name: string;
  seconds: number;
  ok: boolean;
  reason?: string;
}

export interface TaskRecord {
  name: string;
  build: BuildRecord;
  oracle?: ScenarioResult;
  null?: ScenarioResult;
  /** An agent's run past the task timeout (cancelled). */
  timedOut?: string[];
}

/** Whether the task decided its record: not an engine failure, and no agent's run past the timeout. */
export function decidedByTask(record: TaskRecord): boolean {
  return record.oracle?.status !== 'infra_error' && record.null?.status !== 'infra_error' && !record.timedOut?.length;
}

const percent = (part: number, whole: number) => (whole ? `${((100 * part) / whole).toFixed(0)} %` : '—');

async function readJson<T>(file: string): Promise<T | undefined> {
  if (!existsSync(file)) return undefined;
  const text = await readFile(file, 'utf8');
  // `trl eval --json` prints the result; anything before the first brace is progress.
  const start = text.search(/^[[{]/m);
  return JSON.parse(start > 0 ? text.slice(start) : text) as T;
}

/** The three kinds of refusal the issue allows, read from the reason; anything else is named as such. */
function refusalKind(reason: string): string {
  if (/prebuilt .*task image/.test(reason)) return 'needs a prebuilt task image';
  if (/online by design|allow_internet/.test(reason)) return 'online by design';
  if (
    /cannot reach|on the Hub|Name or service not known|Could not resolve host|Temporary failure in name resolution|urlopen error/.test(
      reason,
    )
  )
    return 'needs a host this machine cannot reach';
  return 'other (see reason)';
}

/** The line of a reason that says why (a failed download, a refusal), else its start. */
function briefReason(reason: string): string {
  const lines = reason
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const telling = lines.find((line) =>
    /download failed|cannot reach|prebuilt|not known|Could not resolve|Error:|error:/.test(line),
  );
  return (telling ?? lines[0] ?? '').replace(/\|/g, '\\|').slice(0, 200);
}

export async function table(scratch: string): Promise<void> {
  const drawn = (await readJson<{ seed: number; drawn: (Candidate & { id: string })[] }>(
    path.join(scratch, 'sample.json'),
  ))!;
  const imported = (await readJson<ImportedTask[]>(path.join(scratch, 'import.json'))) ?? [];
  const builds = [
    ...((await readJson<BuildRecord[]>(path.join(scratch, 'build.json'))) ?? []),
    ...((await readJson<BuildRecord[]>(path.join(scratch, 'build-reverse.json'))) ?? []),
  ];
  const oracle = await readJson<EvaluationResult>(path.join(scratch, 'oracle.json'));
  const nullRun = await readJson<EvaluationResult>(path.join(scratch, 'null.json'));
  // `run` records, task by task, take precedence over the whole-sample `eval` results.
  const records = new Map<string, TaskRecord>();
  const resultsDir = path.join(scratch, 'results');
  for (const file of (existsSync(resultsDir) ? await readdir(resultsDir) : []).filter((f) => f.endsWith('.json'))) {
    const record = await readJson<TaskRecord>(path.join(resultsDir, file));
    if (record) {
      records.set(record.name, record);
      builds.push(record.build);
    }
  }
  const rows: string[][] = [];
  const counts = { unchanged: 0, rewritten: 0, refused: 0, infra: 0, notRun: 0, oraclePass: 0 };
  for (const task of drawn.drawn) {
    const importedTask = imported.find((t) => path.basename(t.source) === task.id);
    const name = importedTask?.name ?? task.id;
    // The cold build: of two builders' records (one finding the image already built), the longer.
    // A task import refuses is not run: records left from an earlier import of it are stale.
    const refusedAtImport = !importedTask || importedTask.status === 'refused';
    const built = refusedAtImport
      ? undefined
      : builds.filter((b) => b.name === name).sort((a, b) => b.seconds - a.seconds)[0];
    const record = refusedAtImport ? undefined : records.get(name);
    const scenarioOf = (agent: 'oracle' | 'null', result: EvaluationResult | undefined) =>
      refusedAtImport ? undefined : record ? record[agent] : result?.perScenario.find((p) => p.name === name);
    const score = (agent: 'oracle' | 'null', result: EvaluationResult | undefined) => {
      const s = scenarioOf(agent, result);
      if (!s) return record?.timedOut?.some((t) => t.startsWith(agent)) ? 'timeout' : '—';
      return s.status === 'completed' ? `${s.testsPassed}/${s.testsTotal}` : s.status;
    };
    const oracleScenario = scenarioOf('oracle', oracle);
    const notes = [...(importedTask?.notes ?? []), ...(oracleScenario?.notes ?? [])];
    const rewritten = notes.some((n) => / rewritten: |replaced by|registry tape/.test(n)) || task.format === 'tb1';
    let outcome: string;
    let reason = '';
    if (refusedAtImport) {
      outcome = 'refused (import)';
      reason = notes[0] ?? 'not imported';
    } else if (oracleScenario?.status === 'infra_error') {
      outcome = 'infrastructure failure';
      reason = oracleScenario.error ?? '';
    } else if (built && !built.ok) {
      outcome = 'refused (build)';
      // The workflow's error holds the build log's tail (why it failed); the builder's record its last lines.
      reason = oracleScenario?.error ?? built.reason ?? '';
    } else if (!oracleScenario && !record?.timedOut) outcome = 'not run yet';
    else outcome = rewritten ? 'ran after rewrite' : 'ran unchanged';
    if (outcome === 'not run yet') counts.notRun++;
    else if (outcome === 'infrastructure failure') counts.infra++;
    else if (outcome.startsWith('refused')) counts.refused++;
    else if (rewritten) counts.rewritten++;
    else counts.unchanged++;
    const oraclePassed =
      oracleScenario?.status === 'completed' &&
      oracleScenario.testsTotal > 0 &&
      oracleScenario.testsPassed === oracleScenario.testsTotal;
    if (oraclePassed) counts.oraclePass++;
    if (!reason && record?.timedOut) reason = record.timedOut.join('; ');
    if (!reason && oracleScenario && oracleScenario.status !== 'completed') reason = oracleScenario.error ?? '';
    else if (!reason && oracleScenario && !oraclePassed) reason = 'oracle did not pass every test';
    rows.push([
      task.repo,
      task.format,
      name,
      outcome,
      built ? `${built.seconds.toFixed(0)}` : '—',
      score('oracle', oracle),
      score('null', nullRun),
      outcome.startsWith('refused') ? refusalKind(reason) : '',
      briefReason(reason),
    ]);
  }
  const header = [
    'repository',
    'format',
    'task',
    'outcome',
    'cold build s',
    'oracle',
    'null',
    'refusal',
    'reason / note',
  ];
  process.stdout.write(
    [header, header.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n') +
      `\n\n${drawn.drawn.length} tasks (seed ${drawn.seed}): ran unchanged ${counts.unchanged}, ran after a rewrite ${counts.rewritten}, refused ${counts.refused}, infrastructure failures ${counts.infra}, not run yet ${counts.notRun}; ` +
      `oracle passed every test on ${counts.oraclePass}: ${percent(counts.oraclePass, counts.unchanged + counts.rewritten)} of the ${counts.unchanged + counts.rewritten} that ran, ${percent(counts.oraclePass, drawn.drawn.length)} of the ${drawn.drawn.length} drawn\n`,
  );
}
