// Benchmark: an evaluation's own overhead — the oracle agent (the reference solution, no model time)
// on N scenarios through the real worker (Temporal dev server, Docker sandboxes, verifiers), with
// the wall time of each scenario's agent and verifier phases from the result. The workflow's history
// splits each scenario into the task's own commands (solve.sh, test.sh: not overhead) and what the
// validator adds around them: preparing (image check, test count), the activities' time beyond
// their command (containers, copies, snapshot, artifacts), and the wait for a worker slot.
// The null agent (does nothing, so every verifier runs on the untouched task) gives the same
// overhead without the task's own solve.sh.
// --workers 1,2 runs the evaluation once per count of sandbox workers (each with its own host id,
// beside one orchestration worker, all in this process) and compares them in one table.
// node --import tsx bench/pipeline-overhead.ts [--scenarios 3 | --all] [--scenario NAME]… [--agent oracle|null]
// [--workers 1,2]
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { scenariosDir } from '../common/data-layout.ts';
import { renderTable } from '../cli/render-table.ts';
import { startHarness, uniqueId } from '../test/support/evaluation-harness.ts';
import { bootstrap } from '../infra/bootstrap.ts';
import { startSplitRoleWorkers } from './split-role-workers.ts';
import { evaluationWorkflowId } from '../contracts/temporal-names.ts';
import { activitySpans, type ActivitySpan } from './workflow-history.ts';

/** The scenario an activity's input names (prepareScenario takes the descriptor; run/verify a request with `scenario`).
 * */
function scenarioNameOf(input: unknown): string | undefined {
  const value = input as { name?: string; scenario?: { name?: string } } | undefined;
  return value?.scenario?.name ?? value?.name;
}
import { examplePackDir } from '../test/support/fixture-packs.ts';

const { values } = parseArgs({
  options: {
    scenarios: { type: 'string', default: '3' },
    all: { type: 'boolean', default: false },
    scenario: { type: 'string', multiple: true },
    agent: { type: 'string', default: 'oracle' },
    workers: { type: 'string', default: '1' },
  },
});
if (values.agent !== 'oracle' && values.agent !== 'null') {
  process.stderr.write(`--agent must be oracle or null, not ${values.agent}\n`);
  process.exit(64);
}
const agent: 'oracle' | 'null' = values.agent;
const workerCounts = values.workers.split(',').map(Number);
if (workerCounts.some((count) => !Number.isInteger(count) || count < 1 || count > 4)) {
  process.stderr.write(
    `--workers takes sandbox worker counts from 1 to 4, comma-separated (1,2), not ${values.workers}\n`,
  );
  process.exit(64);
}

async function scenarioNames(): Promise<string[]> {
  if (values.scenario?.length) return values.scenario;
  const entries = await readdir(scenariosDir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return values.all ? names : names.slice(0, Number(values.scenarios));
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

const scenarios = await scenarioNames();
const harnessStarted = performance.now();
const harness = await startHarness({ withWorker: false });
const stack = await bootstrap(harness.docker);
const harnessMs = performance.now() - harnessStarted;

interface ArmSummary {
  sandboxWorkers: number;
  wallMs: number;
  taskMs: number;
  ownMs: number;
  queuedMs: number;
  tests: string;
}

/**
 * One evaluation with an orchestration worker and `sandboxWorkers` sandbox workers (one host id
 * each) in this process, all sharing this machine's cores and Docker engine: prints the per-scenario
 * table and returns the totals.
 */
async function measureArm(sandboxWorkers: number): Promise<ArmSummary> {
  const workers = await startSplitRoleWorkers(harness, stack, sandboxWorkers, 'bench-host');
  try {
    const started = performance.now();
    const submissionId = uniqueId('bench-pipeline');
    const result = await harness.evaluate({
      submissionId,
      pack: { kind: 'directory', path: examplePackDir },
      agent,
      scenarios,
    });
    const wallMs = performance.now() - started;
    const spans = activitySpans(
      (await harness.client.workflow.getHandle(evaluationWorkflowId(submissionId)).fetchHistory()).events ?? [],
    );
    const spanOf = (type: string, name: string) =>
      spans.filter((span) => span.type === type && scenarioNameOf(span.input) === name);
    const busyMs = (list: ActivitySpan[]) =>
      list.reduce((sum, span) => sum + ((span.closedMs ?? span.scheduledMs) - (span.startedMs ?? span.scheduledMs)), 0);
    const waitMs = (list: ActivitySpan[]) =>
      list.reduce((sum, span) => sum + ((span.startedMs ?? span.scheduledMs) - span.scheduledMs), 0);
    const rows = result.perScenario.map((scenario) => {
      const [prepare, run, verify] = [
        spanOf('prepareScenario', scenario.name),
        spanOf('runScenario', scenario.name),
        spanOf('verifyScenario', scenario.name),
      ];
      return {
        name: scenario.name,
        status: scenario.status as string,
        tests: `${scenario.testsPassed}/${scenario.testsTotal}`,
        agentMs: scenario.agentWallMs,
        verifierMs: scenario.verifierWallMs,
        prepareMs: busyMs(prepare),
        aroundRunMs: busyMs(run) - scenario.agentWallMs,
        aroundVerifyMs: busyMs(verify) - scenario.verifierWallMs,
        queuedMs: waitMs([...prepare, ...run, ...verify]),
      };
    });
    const sum = (key: 'agentMs' | 'verifierMs' | 'prepareMs' | 'aroundRunMs' | 'aroundVerifyMs' | 'queuedMs') =>
      rows.reduce((total, row) => total + row[key], 0);
    const agentMs = sum('agentMs');
    const verifierMs = sum('verifierMs');
    const ownMs = sum('prepareMs') + sum('aroundRunMs') + sum('aroundVerifyMs');
    const beforeScenariosMs =
      Math.min(...spans.filter((span) => span.type === 'prepareScenario').map((span) => span.scheduledMs)) -
      Math.min(...spans.map((span) => span.scheduledMs));
    process.stdout.write(
      `${agent} agent, ${scenarios.length} scenarios from ${path.relative(process.cwd(), scenariosDir) || '.'}, ${sandboxWorkers} sandbox worker(s) and an orchestration worker in one process; ${result.status}, ${result.testsPassed}/${result.testsTotal} tests\n\n`,
    );
    process.stdout.write(
      `${renderTable(
        [
          { header: 'scenario', value: (row: (typeof rows)[number]) => row.name },
          { header: 'status', value: (row: (typeof rows)[number]) => row.status },
          { header: 'tests', value: (row: (typeof rows)[number]) => row.tests, align: 'right' },
          { header: 'agent s', value: (row: (typeof rows)[number]) => seconds(row.agentMs), align: 'right' },
          { header: 'verify s', value: (row: (typeof rows)[number]) => seconds(row.verifierMs), align: 'right' },
          { header: 'prepare s', value: (row: (typeof rows)[number]) => seconds(row.prepareMs), align: 'right' },
          { header: 'around agent s', value: (row: (typeof rows)[number]) => seconds(row.aroundRunMs), align: 'right' },
          {
            header: 'around verify s',
            value: (row: (typeof rows)[number]) => seconds(row.aroundVerifyMs),
            align: 'right',
          },
          { header: 'queued s', value: (row: (typeof rows)[number]) => seconds(row.queuedMs), align: 'right' },
        ],
        rows,
        {
          name: 'sum',
          status: '',
          tests: `${result.testsPassed}/${result.testsTotal}`,
          agentMs,
          verifierMs,
          prepareMs: sum('prepareMs'),
          aroundRunMs: sum('aroundRunMs'),
          aroundVerifyMs: sum('aroundVerifyMs'),
          queuedMs: sum('queuedMs'),
        },
      )}\n\n`,
    );
    // The result records the agent and verifier phases only; preparing (images, containers, sidecar),
    // scheduling and aggregation are what the evaluation's wall time has beyond them when scenarios
    // run one at a time (with scenarios in parallel the phases overlap and this goes negative).
    process.stdout.write(
      `the validator's own work, summed over scenarios (prepare + around the agent + around the verifier): ${seconds(ownMs)} s; the task's own commands (solve.sh + test.sh): ${seconds(agentMs + verifierMs)} s; before the first scenario (fetch, pre-eval, probe when paid): ${seconds(beforeScenariosMs)} s\n`,
    );
    process.stdout.write(
      `evaluation wall: ${seconds(wallMs)} s; agent phases ${seconds(agentMs)} s + verifier phases ${seconds(verifierMs)} s summed; wall − both sums (prepare, scheduling, aggregation when sequential): ${seconds(wallMs - agentMs - verifierMs)} s\n\n`,
    );
    return {
      sandboxWorkers,
      wallMs,
      taskMs: agentMs + verifierMs,
      ownMs,
      queuedMs: sum('queuedMs'),
      tests: `${result.testsPassed}/${result.testsTotal}`,
    };
  } finally {
    await workers.stop();
  }
}

try {
  process.stdout.write(`harness start (bootstrap, workflow bundle): ${seconds(harnessMs)} s\n\n`);
  const arms: ArmSummary[] = [];
  for (const count of workerCounts) arms.push(await measureArm(count));
  if (arms.length > 1) {
    // The workers share two cores and one Docker engine here: a second worker adds activity slots,
    // not a machine, so this shows what the split costs, not what a second host would gain.
    process.stdout.write(
      `${renderTable(
        [
          { header: 'sandbox workers', value: (arm: ArmSummary) => arm.sandboxWorkers, align: 'right' },
          { header: 'tests', value: (arm: ArmSummary) => arm.tests, align: 'right' },
          { header: 'evaluation wall s', value: (arm: ArmSummary) => seconds(arm.wallMs), align: 'right' },
          {
            header: 'scenarios/min',
            value: (arm: ArmSummary) => (scenarios.length / (arm.wallMs / 60_000)).toFixed(1),
            align: 'right',
          },
          { header: 'task commands s', value: (arm: ArmSummary) => seconds(arm.taskMs), align: 'right' },
          { header: 'own work s', value: (arm: ArmSummary) => seconds(arm.ownMs), align: 'right' },
          { header: 'queued s', value: (arm: ArmSummary) => seconds(arm.queuedMs), align: 'right' },
        ],
        arms,
      )}\n`,
    );
  }
} finally {
  await harness.close();
}
