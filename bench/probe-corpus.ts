// The pre-evaluation probe on the whole pack corpus (test/fixtures/packs honest and gaming) and the
// example policies, one scenario conversation each, at $0: what the probe alone catches and passes,
// apart from the static layers (which stop most gaming packs before the probe in a real run).
//   node --import tsx bench/probe-corpus.ts [--scenario NAME]… [--only NAME]…
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { examplesDir, repoRoot, scenariosDir } from '../common/data-layout.ts';
import type { PolicySource } from '../activities/agent-environment.ts';
import { runProbe } from '../activities/probe-activity.ts';
import { readPackDirectory } from '../packs/read-pack.ts';
import { packKindOf, skillFile } from '../packs/pack-format.ts';
import { bundlePack } from '../packs/bundle-pack.ts';
import { renderTable } from '../cli/render-table.ts';
import { benchActivityDeps } from './bench-activity-deps.ts';

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', multiple: true, default: ['csv-sales-report'] },
    only: { type: 'string', multiple: true, default: [] },
  },
});

async function policyOfDirectory(dir: string): Promise<PolicySource | string> {
  const pack = await readPackDirectory(dir);
  const kind = packKindOf(pack);
  if (kind === 'typescript') return { kind, bundleCode: (await bundlePack(pack)).code };
  if (kind === 'python' || kind === 'data') {
    const { [skillFile]: _skill, ...files } = pack.files;
    return { kind, files };
  }
  return 'no single entry';
}

const corpus = path.join(repoRoot, 'test', 'fixtures', 'packs');
const groups: [string, string][] = [
  ['honest', path.join(corpus, 'honest')],
  ['example', examplesDir],
  ['gaming', path.join(corpus, 'gaming')],
];
const deps = await benchActivityDeps();
const scenarios = values.scenario!.map((name) => ({ name, dir: path.join(scenariosDir, name) }));
const rows: Record<string, string | number>[] = [];
for (const [group, dir] of groups) {
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  for (const name of names) {
    if (values.only!.length && !values.only!.includes(name)) continue;
    const policy = await policyOfDirectory(path.join(dir, name)).catch(
      (error: Error) => `unreadable: ${error.message.slice(0, 60)}`,
    );
    if (typeof policy === 'string') {
      rows.push({ group, pack: name, kind: '—', verdict: policy, coverage: '', injected: '', note: '' });
      continue;
    }
    const started = performance.now();
    const report = await runProbe(deps, {
      policy,
      scenarios,
      workflowId: `probe-corpus-${name}`,
      attempt: 1,
      signal: new AbortController().signal,
    });
    const probe = report.scenarios[0];
    rows.push({
      group,
      pack: name,
      kind: policy.kind,
      verdict: report.verdict === 'pass' ? 'pass' : report.reasons.map((r) => r.code).join(','),
      coverage: probe ? probe.provenance.coverage.toFixed(2) : '',
      injected: probe ? probe.injected.length : '',
      note: `${((performance.now() - started) / 1000).toFixed(1)} s${probe?.error ? ` · ${probe.error.slice(0, 50)}` : ''}`,
    });
    process.stderr.write(`${group} ${name}: ${rows.at(-1)!.verdict}\n`);
  }
}
process.stdout.write(
  renderTable(
    [
      { header: 'group', value: (r) => r.group ?? '' },
      { header: 'pack', value: (r) => r.pack ?? '' },
      { header: 'kind', value: (r) => r.kind ?? '' },
      { header: 'probe verdict', value: (r) => r.verdict ?? '' },
      { header: 'provenance', value: (r) => r.coverage ?? '', align: 'right' },
      { header: 'injected', value: (r) => r.injected ?? '', align: 'right' },
      { header: 'time · error', value: (r) => r.note ?? '' },
    ],
    rows,
  ) + '\n',
);
for (const group of ['honest', 'example', 'gaming']) {
  const mine = rows.filter((r) => r.group === group);
  process.stdout.write(
    `${group}: ${mine.filter((r) => r.verdict === 'pass').length} passed, ${mine.filter((r) => r.verdict !== 'pass').length} rejected of ${mine.length}\n`,
  );
}
