// Benchmark: an evaluation's own overhead — the oracle agent (the reference solution, no model time)
// on N scenarios through the real worker (Temporal dev server, Docker sandboxes, verifiers), with
// the wall time of each scenario's agent and verifier phases from the result.
//   node --import tsx bench/pipeline-overhead.ts [--scenarios 3 | --all] [--scenario NAME]…
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { scenariosDir } from '../common/data-layout.ts';
import { renderTable } from '../cli/render-table.ts';
import { startHarness } from '../test/support/evaluation-harness.ts';
import { examplePackDir } from '../test/support/fixture-packs.ts';

const { values } = parseArgs({
  options: { scenarios: { type: 'string', default: '3' }, all: { type: 'boolean', default: false }, scenario: { type: 'string', multiple: true } },
});

async function scenarioNames(): Promise<string[]> {
  if (values.scenario?.length) return values.scenario;
  const entries = await readdir(scenariosDir, { withFileTypes: true });
  const names = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  return values.all ? names : names.slice(0, Number(values.scenarios));
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

const scenarios = await scenarioNames();
const harnessStarted = performance.now();
const harness = await startHarness();
const harnessMs = performance.now() - harnessStarted;
try {
  const started = performance.now();
  const result = await harness.evaluate({ pack: { kind: 'directory', path: examplePackDir }, agent: 'oracle', scenarios });
  const wallMs = performance.now() - started;
  const rows = result.perScenario.map((scenario) => ({ name: scenario.name, status: scenario.status as string, tests: `${scenario.testsPassed}/${scenario.testsTotal}`, agentMs: scenario.agentWallMs, verifierMs: scenario.verifierWallMs }));
  const agentMs = rows.reduce((sum, row) => sum + row.agentMs, 0);
  const verifierMs = rows.reduce((sum, row) => sum + row.verifierMs, 0);
  process.stdout.write(`oracle agent, ${scenarios.length} scenarios from ${path.relative(process.cwd(), scenariosDir) || '.'}, one worker (both roles); ${result.status}, ${result.testsPassed}/${result.testsTotal} tests\n\n`);
  process.stdout.write(
    `${renderTable(
      [
        { header: 'scenario', value: (row: (typeof rows)[number]) => row.name },
        { header: 'status', value: (row: (typeof rows)[number]) => row.status },
        { header: 'tests', value: (row: (typeof rows)[number]) => row.tests, align: 'right' },
        { header: 'agent s', value: (row: (typeof rows)[number]) => seconds(row.agentMs), align: 'right' },
        { header: 'verify s', value: (row: (typeof rows)[number]) => seconds(row.verifierMs), align: 'right' },
      ],
      rows,
      { name: 'sum', status: '', tests: `${result.testsPassed}/${result.testsTotal}`, agentMs, verifierMs },
    )}\n\n`,
  );
  // The result records the agent and verifier phases only; preparing (images, containers, sidecar),
  // scheduling and aggregation are what the evaluation's wall time has beyond them when scenarios
  // run one at a time (with scenarios in parallel the phases overlap and this goes negative).
  process.stdout.write(`harness start (bootstrap, workflow bundle, worker): ${seconds(harnessMs)} s\n`);
  process.stdout.write(`evaluation wall: ${seconds(wallMs)} s; agent phases ${seconds(agentMs)} s + verifier phases ${seconds(verifierMs)} s summed; wall − both sums (prepare, scheduling, aggregation when sequential): ${seconds(wallMs - agentMs - verifierMs)} s\n`);
} finally {
  await harness.close();
}
