// Every example policy (TypeScript, data and Python kinds) on the active scenarios through Hermes
// on the sim fleet, one `trl eval --json` after another, and one table: tests passed, $ spent, $ by
// model. The figures depend on the sim fleet's profiles, not on real models.
//   node --import tsx bench/example-policies.ts [--agent hermes] [--scenario NAME]… [--only NAME]…
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { examplesDir, repoRoot } from '../common/data-layout.ts';
import type { EvaluationResult } from '../contracts/results.ts';
import { readLocalPack } from '../packs/read-pack.ts';
import { packKindOf } from '../packs/pack-format.ts';
import { renderTable } from '../cli/render-table.ts';

const { values } = parseArgs({
  options: {
    agent: { type: 'string', default: 'hermes' },
    scenario: { type: 'string', multiple: true, default: [] },
    only: { type: 'string', multiple: true, default: [] },
  },
});

function evaluate(dir: string): Promise<EvaluationResult> {
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
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
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

const names = (await readdir(examplesDir, { withFileTypes: true }))
  .filter((e) => e.isDirectory() && (values.only!.length === 0 || values.only!.includes(e.name)))
  .map((e) => e.name)
  .sort();
interface Row {
  name: string;
  kind: string;
  status: string;
  tests: string;
  costUsd: string;
  byModel: string;
  wallS: string;
}
const rows: Row[] = [];
for (const name of names) {
  const dir = path.join(examplesDir, name);
  const kind = packKindOf(await readLocalPack(dir)) ?? '?';
  const started = Date.now();
  const result = await evaluate(dir);
  const byModel = Object.entries(result.costByModelUsd ?? {})
    .sort(([, a], [, b]) => b - a)
    .map(([model, usd]) => `${model} ${usd.toFixed(4)}`)
    .join(', ');
  rows.push({
    name,
    kind,
    status: result.status,
    tests: `${result.testsPassed}/${result.testsTotal}`,
    costUsd: result.costUsd.toFixed(4),
    byModel,
    wallS: ((Date.now() - started) / 1000).toFixed(0),
  });
  process.stderr.write(
    `${name}: ${result.status} ${result.testsPassed}/${result.testsTotal} $${result.costUsd.toFixed(4)}\n`,
  );
}
process.stdout.write(
  renderTable(
    [
      { header: 'example', value: (r: Row) => r.name },
      { header: 'kind', value: (r) => r.kind },
      { header: 'status', value: (r) => r.status },
      { header: 'tests', value: (r) => r.tests, align: 'right' },
      { header: '$ spent', value: (r) => r.costUsd, align: 'right' },
      { header: 'wall s', value: (r) => r.wallS, align: 'right' },
      { header: '$ by model', value: (r) => r.byModel },
    ],
    rows,
  ) + '\n',
);
