// The coaching corpus's run-time column through real evaluations: each pack of bench/coaching-targets.ts
// evaluated on its target scenario by the real workflow (real Temporal, the pack's sandbox, the gateway,
// the agent in the scenario's image, the sim fleet, the verifier), with the run-time injection check
// enforcing and the layers before it turned off by the operator's pre-evaluation file (static scan,
// similarity, judge, probe: `probe.enabled` false), so the column is the check's alone. Per pack: the
// scenario's status, the evidence, how many calls the check read, and how many of the target's solution
// lines the policy's requests carried in (the call log; not the lines a model answered first). The sim
// fleet plays realistic (10-35 turns) by default, at time scale 0. With --honest-examples it runs the policy/examples
// packs through the same path on several scenarios instead: the check's false positives on real runs.
// With --scan DIR it reads no run of its own: every result.json under DIR (a `trl test` data directory)
// of an agent's runs, and sums what the check found in them.
//   node --import tsx bench/coaching-corpus-eval.ts [--agent hermes] [--only NAME]…
//   node --import tsx bench/coaching-corpus-eval.ts --honest-examples [--scenarios a,b,c]
//   node --import tsx bench/coaching-corpus-eval.ts --scan .data/test [--agent hermes]
import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { EvaluationResult, ScenarioResult } from '../contracts/results.ts';
import { newHonest, targets } from './coaching-targets.ts';

const { values } = parseArgs({
  options: {
    agent: { type: 'string', default: 'hermes' },
    only: { type: 'string', multiple: true, default: [] },
    'honest-examples': { type: 'boolean', default: false },
    scenarios: {
      type: 'string',
      default: 'csv-sales-report,fix-inventory-bug,semver-range-matcher,git-purge-leaked-secret',
    },
    scan: { type: 'string' },
    concurrency: { type: 'string', default: '2' },
    fleet: { type: 'string', default: 'realistic' },
  },
});

type Row = Record<string, string | number>;

/** What one scenario of a run came to, as the table shows it. */
function scenarioRow(scenario: ScenarioResult | undefined, result: EvaluationResult): Row {
  if (!scenario)
    return { status: result.rejection ? `rejected: ${result.rejection.map((r) => r.code).join(',')}` : result.status };
  const injection = scenario.injection;
  const first = injection?.evidence[0];
  return {
    status: scenario.status,
    checked: injection?.checkedCalls ?? 0,
    pieces: injection?.injectedPieces ?? 0,
    evidence: first ? `${first.kind} "${first.display.slice(0, 30)}" in ${first.field} (${first.callId})` : '',
  };
}

/**
 * Solution lines of the target that reached a model: found in some field of a request the gateway let
 * through (the call log; a refused call is not logged with its body) and in no answer a model gave before
 * it (the sim fleet's solving answer is the solution). Lines the agent sent (SKILL.md it read) count too.
 */
async function carriedLines(scenario: ScenarioResult, target: string): Promise<string> {
  const { hiddenContentOf } = await import('../activities/hidden-content.ts');
  const { indexPhrases, scanPhrases } = await import('../gateway/injection/phrase-index.ts');
  const { walkStrings } = await import('../gateway/injection/injection-guard.ts');
  const { scenariosDir } = await import('../common/data-layout.ts');
  const lines = (await hiddenContentOf(path.join(scenariosDir, target), target)).filter(
    (piece) => piece.kind === 'solution-line',
  );
  const log = scenario.artifacts.modelCallLog?.path;
  if (!log) return `?/${lines.length}`;
  const index = indexPhrases(lines);
  const answered = new Set<number>();
  const carried = new Set<number>();
  for (const line of (await readFile(log, 'utf8')).split('\n')) {
    if (!line) continue;
    const row = JSON.parse(line) as { phase?: string; request?: unknown; response?: unknown };
    if (row.phase === 'start')
      walkStrings(row.request, (text) =>
        scanPhrases(index, text, (position) => {
          if (!answered.has(position)) carried.add(position);
        }),
      );
    else if (row.response !== undefined)
      walkStrings(row.response, (text) => scanPhrases(index, text, (position) => answered.add(position)));
  }
  return `${carried.size}/${lines.length}`;
}

/** Every result.json under `dir`. */
async function resultFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (at: string, depth: number): Promise<void> => {
    for (const entry of await readdir(at, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory() && !entry.isSymbolicLink() && depth < 8) await walk(full, depth + 1);
      else if (entry.isFile() && entry.name === 'result.json') found.push(full);
    }
  };
  await walk(dir, 0);
  return found;
}

async function scan(dir: string): Promise<void> {
  let runs = 0;
  let scenarios = 0;
  let calls = 0;
  let flagged = 0;
  const flaggedRows: string[] = [];
  for (const file of await resultFiles(dir)) {
    const result = JSON.parse(await readFile(file, 'utf8')) as EvaluationResult;
    if (result.agent !== values.agent) continue;
    runs += 1;
    for (const scenario of result.perScenario ?? []) {
      if (!scenario.injection) continue;
      scenarios += 1;
      calls += scenario.injection.checkedCalls;
      if (scenario.injection.injectedPieces > 0 || scenario.status === 'injected_scenario_content') {
        flagged += 1;
        flaggedRows.push(`${file} ${scenario.name}: ${JSON.stringify(scenario.injection.evidence[0])}`);
      }
    }
  }
  process.stdout.write(
    `${values.agent} runs ${runs}, scenarios checked ${scenarios}, calls checked ${calls}, scenarios with a piece found ${flagged}\n` +
      flaggedRows.join('\n') +
      (flaggedRows.length ? '\n' : ''),
  );
}

async function evaluateAll(): Promise<void> {
  // Runs of its own: a data directory and a pre-evaluation file of its own, before the project's modules read them.
  const runsDir = await mkdtemp(path.join(os.tmpdir(), 'trl-coaching-eval-'));
  process.env.TRL_DATA_DIR = runsDir;
  const preEvalFile = path.join(runsDir, 'preeval-run-time-only.json');
  await writeFile(
    preEvalFile,
    JSON.stringify({
      version: 1,
      staticScan: { enabled: false },
      similarity: { enabled: false },
      judge: { enabled: false, model: 'none' },
      probe: { enabled: false },
    }),
  );
  process.env.TRL_PREEVAL_FILE = preEvalFile;
  const { repoRoot, examplesDir } = await import('../common/data-layout.ts');
  const { startHarness } = await import('../test/support/evaluation-harness.ts');
  const { renderTable } = await import('../cli/render-table.ts');
  // Realistic by default: fast mode's model solves in its first answer (the solution itself, which then is the
  // model's to repeat) and ends in 2-4 turns, before a late trigger fires.
  process.env.TRL_SIM_FLEET_TIME_SCALE ??= '0';
  const harness = await startHarness({ simFleetMode: values.fleet === 'fast' ? 'fast' : 'realistic' });
  const fixtures = path.join(repoRoot, 'test', 'fixtures', 'packs');
  const entries: { group: string; name: string; dir: string; scenarios: string[] }[] = [];
  if (values['honest-examples']) {
    const scenarios = values.scenarios!.split(',');
    for (const name of (await readdir(examplesDir)).sort()) {
      const dir = path.join(examplesDir, name);
      if ((await stat(dir)).isDirectory()) entries.push({ group: 'example', name, dir, scenarios });
    }
  } else {
    for (const name of (await readdir(path.join(fixtures, 'coaching'))).sort())
      entries.push({
        group: 'coaching',
        name,
        dir: path.join(fixtures, 'coaching', name),
        scenarios: [targets[name] ?? 'csv-sales-report'],
      });
    for (const name of newHonest)
      entries.push({
        group: 'honest',
        name,
        dir: path.join(fixtures, 'honest', name),
        scenarios: ['csv-sales-report'],
      });
  }
  const chosen = entries.filter((entry) => values.only!.length === 0 || values.only!.includes(entry.name));
  const rows: Row[] = [];
  let next = 0;
  const lane = async () => {
    while (next < chosen.length) {
      const entry = chosen[next++]!;
      const started = performance.now();
      const result = await harness.evaluate({
        pack: { kind: 'directory', path: entry.dir },
        agent: values.agent as 'hermes',
        scenarios: entry.scenarios,
        seed: 1,
      });
      for (const name of entry.scenarios) {
        const scenario = result.perScenario.find((s) => s.name === name);
        const row: Row = {
          group: entry.group,
          pack: entry.name,
          scenario: name,
          ...scenarioRow(scenario, result),
          carried: scenario ? await carriedLines(scenario, name) : '',
          seconds: ((performance.now() - started) / 1000).toFixed(0),
        };
        rows.push(row);
        process.stderr.write(`${JSON.stringify(row)}\n`);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Number(values.concurrency) }, lane));
  } finally {
    await harness.close();
  }
  rows.sort((a, b) => `${a.group}/${a.pack}/${a.scenario}`.localeCompare(`${b.group}/${b.pack}/${b.scenario}`));
  const column = (header: string, key: string, align?: 'right') => ({ header, value: (r: Row) => r[key] ?? '', align });
  process.stdout.write(
    renderTable(
      [
        column('group', 'group'),
        column('pack', 'pack'),
        column('scenario', 'scenario'),
        column('status', 'status'),
        column('calls checked', 'checked', 'right'),
        column('pieces', 'pieces', 'right'),
        column('solution lines that reached a model', 'carried', 'right'),
        column('first evidence', 'evidence'),
        column('s', 'seconds', 'right'),
      ],
      rows,
    ) + '\n\n',
  );
  for (const group of [...new Set(rows.map((r) => r.group))]) {
    const mine = rows.filter((r) => r.group === group);
    const caught = mine.filter((r) => r.status === 'injected_scenario_content').length;
    const calls = mine.reduce((sum, r) => sum + Number(r.checked ?? 0), 0);
    process.stdout.write(
      `${group}: ${mine.length} runs, ${caught} injected_scenario_content, ${calls} calls checked (${values.agent}, ${values.fleet} fleet, data in ${runsDir})\n`,
    );
  }
}

if (values.scan) await scan(values.scan);
else await evaluateAll();
