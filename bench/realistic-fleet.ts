// What the realistic sim fleet shows: every example policy (and the bench's own packs: two on the same
// model that differ only by prompting, one that cuts tool results, one coaching cheat built here) through
// Hermes on the realistic fleet at time scale 0, one `trl eval --json` after another, and one table:
// tests, agent turns, prompt tokens, $, and how often the budget clamp, the 402 floor and context overflow
// fired. The figures are the sim fleet's (simfleet/README.md), not real models'.
// node --import tsx bench/realistic-fleet.ts [--scenario NAME]… [--only NAME]… [--time-scale X] [--cap-usd X]
// [--no-coaching] [--agent hermes|loop] [--out FILE]
// --only: the packs whose name contains one of them, in the order given.
// The coaching pack is measured four ways: as submitted, past the scan, past all of screening with the run-time check
// on, and past all of screening with the check observing only (TRL_INJECTION_CHECK=observe).
// Each pack's row is appended to --out (JSON lines) as soon as it is measured, and a rerun with the same file
// skips the packs it already holds for the same scenarios, agent, time scale and cap: the grid can be
// stopped and resumed, and the table is printed from the whole file.
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { benchResultsFile, examplesDir, repoRoot } from '../common/data-layout.ts';
import type { EvaluationResult } from '../contracts/results.ts';
import { renderTable } from '../cli/render-table.ts';
import { loadAllowlist } from '../gateway/catalog/allowlist.ts';
import { writeCoachingPack } from './realistic-fleet-coaching.ts';

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', multiple: true, default: [] },
    only: { type: 'string', multiple: true, default: [] },
    'time-scale': { type: 'string', default: '0' },
    'no-coaching': { type: 'boolean', default: false },
    /** trl eval's --agent: hermes (the competition agent) or loop (the small built-in one, cheaper). */
    agent: { type: 'string', default: 'hermes' },
    out: { type: 'string' },
    /** The per-scenario cap (TRL_BUDGET_CAP_USD; local default $1, the live season's $0.30). */
    'cap-usd': { type: 'string' },
  },
});

const benchPacksDir = path.join(repoRoot, 'bench', 'packs');

function evaluate(dir: string, extraEnv: Record<string, string> = {}): Promise<EvaluationResult> {
  const args = [
    '--import',
    'tsx',
    path.join(repoRoot, 'cli', 'main.ts'),
    'eval',
    dir,
    '--json',
    '--agent',
    values.agent!,
    ...values.scenario!.flatMap((s) => ['--scenario', s]),
  ];
  const env = {
    ...process.env,
    TRL_SIM_FLEET_MODE: 'realistic',
    TRL_SIM_FLEET_TIME_SCALE: values['time-scale']!,
    ...(values['cap-usd'] === undefined ? {} : { TRL_BUDGET_CAP_USD: values['cap-usd'] }),
    ...extraEnv,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        resolve(JSON.parse(out) as EvaluationResult);
      } catch {
        reject(new Error(`trl eval ${dir} exited ${code} without a JSON result`));
      }
    });
  });
}

export interface CallCounts {
  /** Agent turns: requests the agent made to the policy. */
  turns: number;
  modelCalls: number;
  promptTokens: number;
  clamped: number;
  /** Calls refused for the budget (HTTP 402). */
  refused402: number;
  contextOverflow: number;
  /** What the fleet would have waited at time scale 1: Σ (time to first token + completion / tokens per s). */
  scale1DelayMs: number;
}

const simProfiles = new Map(loadAllowlist().models.map((m) => [m.id, m.sim]));

/** Counts from one scenario's model-call log (gateway/call-log.ts rows). */
export async function countCalls(file: string): Promise<CallCounts> {
  const counts: CallCounts = {
    turns: 0,
    modelCalls: 0,
    promptTokens: 0,
    clamped: 0,
    refused402: 0,
    contextOverflow: 0,
    scale1DelayMs: 0,
  };
  const requests = new Set<string>();
  const lines = createInterface({ input: createReadStream(file).on('error', () => undefined) });
  try {
    for await (const line of lines) {
      if (line.trim() === '') continue;
      const row = JSON.parse(line) as Record<string, unknown>;
      if (typeof row['requestId'] === 'string') requests.add(row['requestId']);
      if (row['phase'] === 'start') continue;
      counts.modelCalls++;
      counts.promptTokens += typeof row['promptTokens'] === 'number' ? row['promptTokens'] : 0;
      if (row['clamped'] === true) counts.clamped++;
      if (row['errorType'] === 'cap') counts.refused402++;
      if (row['errorType'] === 'context_length_exceeded') counts.contextOverflow++;
      const sim = simProfiles.get(String(row['model']));
      if (sim && row['status'] === 'ok' && typeof row['completionTokens'] === 'number')
        counts.scale1DelayMs += sim.latencyMs + (row['completionTokens'] / sim.tokensPerSecond) * 1000;
    }
  } catch {
    // A scenario that never reached the agent has no log: zero calls.
  }
  counts.turns = requests.size;
  return counts;
}

/** Tests passed in a verifier's CTRF report (0 without one). */
async function verifierPassed(file: string | undefined): Promise<number> {
  if (!file) return 0;
  try {
    const report = JSON.parse(await readFile(file, 'utf8')) as { results?: { summary?: { passed?: number } } };
    return report.results?.summary?.passed ?? 0;
  } catch {
    return 0;
  }
}

function add(a: CallCounts, b: CallCounts): CallCounts {
  return {
    turns: a.turns + b.turns,
    modelCalls: a.modelCalls + b.modelCalls,
    promptTokens: a.promptTokens + b.promptTokens,
    clamped: a.clamped + b.clamped,
    refused402: a.refused402 + b.refused402,
    contextOverflow: a.contextOverflow + b.contextOverflow,
    scale1DelayMs: a.scale1DelayMs + b.scale1DelayMs,
  };
}

interface Row {
  /** What the row was measured on; a rerun with the same key skips the pack. */
  key?: string;
  name: string;
  status: string;
  tests: string;
  solved: string;
  turns: string;
  promptK: string;
  costUsd: string;
  clamp: number;
  r402: number;
  overflow: number;
  wallS: string;
  /** Fleet wait per scenario at time scale 1 (s): add it, over the host's parallel scenarios, to the wall at 0. */
  scale1DelayS?: string;
  /** Scenarios that did not end `completed`, by status (e.g. injected_scenario_content×26). */
  endings?: string;
  /** Tests the verifier found passed, before a zero-scored status (injected content, provenance) set them to 0. */
  verified?: string;
}

/**
 * A pre-evaluation file with the static scan, similarity and judge off, and the probe too unless `probe`: the
 * coaching pack then meets the probe (screening/probe), or with the probe off the run-time check (TRL_INJECTION_CHECK).
 */
async function screeningOffFile(probe: boolean): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-preeval-off-'));
  const file = path.join(dir, 'preeval.json');
  const off = {
    version: 1,
    staticScan: { enabled: false },
    similarity: { enabled: false, maxDistance: null },
    judge: { enabled: false, model: 'glm-5.2', maxAttempts: 1, timeoutSec: 120 },
    probe: { enabled: probe },
  };
  await writeFile(file, JSON.stringify(off));
  return file;
}

async function packs(): Promise<{ name: string; dir: string; env?: Record<string, string> }[]> {
  const list = async (root: string, prefix: string) =>
    (await readdir(root, { withFileTypes: true }).catch(() => []))
      .filter((e) => e.isDirectory())
      .map((e) => ({ name: `${prefix}${e.name}`, dir: path.join(root, e.name) }));
  const all: { name: string; dir: string; env?: Record<string, string> }[] = [
    ...(await list(examplesDir, '')),
    ...(await list(benchPacksDir, 'bench/')),
  ];
  if (!values['no-coaching']) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-coaching-pack-'));
    await writeCoachingPack(dir, 'glm-5.3-flash');
    // As submitted (the static scan rejects it); past the scan, similarity and judge (the probe rejects it); past all
    // of screening, with the run-time check on (it ends each scenario: injected_scenario_content) and observing only
    // (TRL_INJECTION_CHECK=observe: what the coaching gains when nothing stops it).
    all.push({ name: 'bench/coaching-glm-flash (generated)', dir });
    all.push({
      name: 'bench/coaching-glm-flash, scan+judge off',
      dir,
      env: { TRL_PREEVAL_FILE: await screeningOffFile(true) },
    });
    const unscreened = await screeningOffFile(false);
    all.push({
      name: 'bench/coaching-glm-flash, screening off, run-time check on',
      dir,
      env: { TRL_PREEVAL_FILE: unscreened, TRL_INJECTION_CHECK: 'enforce' },
    });
    all.push({
      name: 'bench/coaching-glm-flash, screening off, run-time check observe',
      dir,
      env: { TRL_PREEVAL_FILE: unscreened, TRL_INJECTION_CHECK: 'observe' },
    });
  }
  const only = values.only!;
  if (only.length === 0) return all;
  // In the order of --only (the first one a pack's name contains), so a short run measures what matters first.
  const rank = (name: string) => only.findIndex((o) => name.includes(o));
  return all.filter((p) => rank(p.name) >= 0).sort((a, b) => rank(a.name) - rank(b.name));
}

const outFile = values.out ?? benchResultsFile('realistic-fleet');
await mkdir(path.dirname(outFile), { recursive: true });
const conditions = JSON.stringify({
  scenarios: [...values.scenario!].sort(),
  agent: values.agent,
  timeScale: values['time-scale'],
  capUsd: values['cap-usd'] ?? null,
});
const readRows = async (): Promise<Row[]> =>
  (await readFile(outFile, 'utf8').catch(() => ''))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Row);
for (const pack of await packs()) {
  const key = `${pack.name} ${conditions}`;
  // Read afresh before each pack: two runs on one file (in two Temporal namespaces) share out the grid.
  if ((await readRows()).some((r) => r.key === key)) {
    process.stderr.write(`${pack.name}: already in ${outFile}, skipped\n`);
    continue;
  }
  const started = Date.now();
  let result: EvaluationResult;
  try {
    result = await evaluate(pack.dir, pack.env);
  } catch (error) {
    // Not recorded: a resumed run tries the pack again.
    process.stderr.write(`${pack.name}: ${(error as Error).message}\n`);
    continue;
  }
  let counts: CallCounts = {
    turns: 0,
    modelCalls: 0,
    promptTokens: 0,
    clamped: 0,
    refused402: 0,
    contextOverflow: 0,
    scale1DelayMs: 0,
  };
  let solved = 0;
  let verifiedPassed = 0;
  const endings = new Map<string, number>();
  for (const scenario of result.perScenario) {
    if (scenario.status !== 'completed') endings.set(scenario.status, (endings.get(scenario.status) ?? 0) + 1);
    if (scenario.testsTotal > 0 && scenario.testsPassed === scenario.testsTotal) solved++;
    const log = scenario.artifacts?.modelCallLog?.path;
    if (log) counts = add(counts, await countCalls(log));
    verifiedPassed += await verifierPassed(scenario.artifacts?.verifierReport?.path);
  }
  const n = Math.max(1, result.perScenario.length);
  const row: Row = {
    key,
    name: pack.name,
    status: result.status,
    tests: `${result.testsPassed}/${result.testsTotal}`,
    solved: `${solved}/${result.perScenario.length}`,
    turns: (counts.turns / n).toFixed(1),
    promptK: (counts.promptTokens / n / 1000).toFixed(0),
    costUsd: result.costUsd.toFixed(4),
    clamp: counts.clamped,
    r402: counts.refused402,
    overflow: counts.contextOverflow,
    wallS: ((Date.now() - started) / 1000).toFixed(0),
    scale1DelayS: (counts.scale1DelayMs / n / 1000).toFixed(0),
    endings: [...endings].map(([status, count]) => `${status}×${count}`).join(', '),
    verified: `${verifiedPassed}/${result.testsTotal}`,
  };
  await appendFile(outFile, `${JSON.stringify(row)}\n`);
  process.stderr.write(`${JSON.stringify(row)}\n`);
}
process.stdout.write(
  renderTable(
    [
      { header: 'policy', value: (r: Row) => r.name },
      { header: 'status', value: (r) => r.status },
      { header: 'tests', value: (r) => r.tests, align: 'right' },
      { header: 'solved', value: (r) => r.solved, align: 'right' },
      { header: 'turns/scen', value: (r) => r.turns, align: 'right' },
      { header: 'prompt k/scen', value: (r) => r.promptK, align: 'right' },
      { header: '$ total', value: (r) => r.costUsd, align: 'right' },
      { header: 'clamped', value: (r) => String(r.clamp), align: 'right' },
      { header: '402', value: (r) => String(r.r402), align: 'right' },
      { header: 'ctx overflow', value: (r) => String(r.overflow), align: 'right' },
      { header: 'wall s', value: (r) => r.wallS, align: 'right' },
      { header: 'fleet wait at scale 1, s/scen', value: (r) => r.scale1DelayS ?? '—', align: 'right' },
      { header: 'scenarios not completed', value: (r) => r.endings || '—' },
      { header: 'tests the verifier found', value: (r) => r.verified ?? '—', align: 'right' },
    ],
    (await readRows()).filter((r) => r.key?.endsWith(conditions)),
  ) + '\n',
);
