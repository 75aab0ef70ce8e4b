// Benchmark: one evaluation's run through the local model, read from its artifacts (no model is started): per-turn
// latency through the chain (agent → policy sandbox or sidecar → gateway → llama-server and back), the gateway's
// model calls inside those turns, and what is left for the chain, and each scenario's wall time and cost.
//   node --import tsx bench/local-model-run.ts <artifacts dir of an evaluation, e.g. .data/artifacts/evaluate-…>
// The run comes from `./trl eval <pack> --upstream local-model --scenario NAME` or `./trl test --real-model hermes`
// (its evaluations are under .data/test/files/test_real-model_hermes-end-to-end.test.ts/artifacts/).
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { renderTable } from '../cli/render-table.ts';
import { summarize } from './latency-stats.ts';

const dir = process.argv[2];
if (!dir) {
  process.stderr.write('usage: bench/local-model-run.ts <artifacts dir of an evaluation>\n');
  process.exit(2);
}

interface Turn {
  requestId: string;
  latencyMs: number;
}
interface CallEnd {
  phase: string;
  requestId?: string;
  status?: string;
  latencyMs?: number;
  completionTokens?: number;
}

const lines = async (file: string): Promise<unknown[]> =>
  (await readFile(file, 'utf8').catch(() => ''))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as unknown);

const result = JSON.parse(await readFile(path.join(dir, 'result.json'), 'utf8')) as {
  packHash: string;
  costUsd: number;
  perScenario: {
    name: string;
    status: string;
    testsPassed: number;
    testsTotal: number;
    costUsd: number;
    agentWallMs: number;
    verifierWallMs: number;
  }[];
};

const turnMs: number[] = [];
const callMs: number[] = [];
const chainMs: number[] = [];
let tokens = 0;
let generatingMs = 0;
interface Row {
  scenario: string;
  status: string;
  tests: string;
  turns: number;
  calls: number;
  agent: string;
  verifier: string;
  cost: string;
}
const rows: Row[] = [];
for (const scenario of result.perScenario) {
  const attempts = (await readdir(path.join(dir, 'scenarios', scenario.name)).catch(() => [] as string[]))
    .filter((name) => name.startsWith('agent-attempt-'))
    .sort();
  const attempt = path.join(dir, 'scenarios', scenario.name, attempts.at(-1) ?? 'agent-attempt-1');
  const turns = (await lines(path.join(attempt, 'turns.jsonl'))) as Turn[];
  const ends = ((await lines(path.join(attempt, 'model-calls.jsonl'))) as CallEnd[]).filter(
    (row) => row.phase === 'end',
  );
  for (const end of ends) {
    if (end.latencyMs === undefined) continue;
    callMs.push(end.latencyMs);
    if (end.status === 'ok' && end.completionTokens) {
      tokens += end.completionTokens;
      generatingMs += end.latencyMs;
    }
  }
  for (const turn of turns) {
    turnMs.push(turn.latencyMs);
    const inside = ends
      .filter((end) => end.requestId === turn.requestId)
      .reduce((sum, end) => sum + (end.latencyMs ?? 0), 0);
    if (inside > 0) chainMs.push(turn.latencyMs - inside);
  }
  rows.push({
    scenario: scenario.name,
    status: scenario.status,
    tests: `${scenario.testsPassed}/${scenario.testsTotal}`,
    turns: turns.length,
    calls: ends.length,
    agent: `${(scenario.agentWallMs / 1000).toFixed(1)} s`,
    verifier: `${(scenario.verifierWallMs / 1000).toFixed(1)} s`,
    cost: `$${scenario.costUsd.toFixed(6)}`,
  });
}

const ms = (x: number) => `${x.toFixed(0)} ms`;
const stat = (what: string, xs: number[], note: string) => {
  const s = summarize(xs);
  return { what, n: String(s.count), p50: ms(s.p50), p95: ms(s.p95), max: ms(s.max), note };
};
process.stdout.write(
  renderTable(
    [
      { header: 'figure', value: (r: ReturnType<typeof stat>) => r.what, align: 'left' },
      { header: 'n', value: (r: ReturnType<typeof stat>) => r.n },
      { header: 'p50', value: (r: ReturnType<typeof stat>) => r.p50 },
      { header: 'p95', value: (r: ReturnType<typeof stat>) => r.p95 },
      { header: 'max', value: (r: ReturnType<typeof stat>) => r.max },
      { header: 'note', value: (r: ReturnType<typeof stat>) => r.note, align: 'left' },
    ],
    [
      stat('agent turn through the chain', turnMs, 'agent request → policy → gateway → llama-server → agent'),
      stat('model call at the gateway', callMs, 'gateway → llama-server → gateway, every outcome'),
      stat('chain time outside the model calls', chainMs, 'turn latency − its calls, turns with a call'),
    ],
  ) + '\n',
);
process.stdout.write(
  renderTable(
    [
      { header: 'scenario', value: (r: Row) => r.scenario, align: 'left' },
      { header: 'status', value: (r: Row) => r.status, align: 'left' },
      { header: 'tests', value: (r: Row) => r.tests },
      { header: 'turns', value: (r: Row) => String(r.turns) },
      { header: 'calls', value: (r: Row) => String(r.calls) },
      { header: 'agent wall', value: (r: Row) => r.agent },
      { header: 'verifier', value: (r: Row) => r.verifier },
      { header: 'cost', value: (r: Row) => r.cost },
    ],
    rows,
  ) +
    `\npack ${result.packHash.slice(0, 12)}, total $${result.costUsd.toFixed(6)}; ${tokens} completion tokens in ` +
    `${(generatingMs / 1000).toFixed(1)} s of completed calls (${generatingMs ? ((tokens * 1000) / generatingMs).toFixed(1) : '–'} tokens/s end to end)\n`,
);
