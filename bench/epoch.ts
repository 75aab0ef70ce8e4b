// Benchmark: one evaluation inside an epoch. The scenarios (default all 26) through Hermes with the
// cost-cascade example policy, on the realistic sim fleet at time scale 1 (the models' real latency:
// seconds to the first token, tens of tokens per second, long trajectories), on one sandbox host and
// then on two (the topology suite's split: an orchestration worker and sandbox workers with their own
// host ids, here in one process sharing this machine). Prints wall time, peak memory (the evaluation's
// containers, and this process with its children: workers, sim fleet), scenarios in flight over time
// (a plot written to bench/figures/epoch.svg), and where the time went: waiting on models (the sum of
// the model calls' latency), the agents' and verifiers' CPU (their containers' cgroups), the
// verifiers' wall, and Temporal (activity tasks waiting to start, and claims waiting for a host).
// `--per-host-scenarios N` lends every sandbox host the same capacity, N scenarios at once (the
// admission's count cap, TRL_MAX_CONCURRENT_ACTIVITIES, on top of its memory and CPU budget): the hosts
// share this machine's cores, so without it a second host only adds what the first's budget could
// have had. The machine's busy cores and load average are printed beside, to show whether the
// machine's CPU rather than the hosts' capacity bound a run.
// node --import tsx bench/epoch.ts [--scenarios N] [--scenario NAME]… [--hosts 1,2] [--per-host-scenarios N]
//   [--time-scale 1] [--pack NAME] [--svg FILE]
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import os from 'node:os';
import { examplesDir, repoRoot, scenariosDir } from '../common/data-layout.ts';
import { renderTable } from '../cli/render-table.ts';
import { startHarness, uniqueId } from '../test/support/evaluation-harness.ts';
import { bootstrap } from '../infra/bootstrap.ts';
import { startSplitRoleWorkers } from './split-role-workers.ts';
import { evaluationWorkflowId } from '../contracts/temporal-names.ts';
import type { EvaluationResult } from '../contracts/results.ts';
import { activitySpans } from './workflow-history.ts';
import { EpochSampler } from './epoch-sampler.ts';
import { inFlightSvg, type InFlightSeries } from './in-flight-svg.ts';

const { values } = parseArgs({
  options: {
    scenarios: { type: 'string', default: '26' },
    scenario: { type: 'string', multiple: true },
    hosts: { type: 'string', default: '1,2' },
    'per-host-scenarios': { type: 'string' },
    'time-scale': { type: 'string', default: '1' },
    pack: { type: 'string', default: 'cost-cascade' },
    svg: { type: 'string', default: path.join(repoRoot, 'bench', 'figures', 'epoch.svg') },
  },
});
const hostCounts = values.hosts.split(',').map(Number);
if (hostCounts.some((n) => !Number.isInteger(n) || n < 1 || n > 4)) {
  process.stderr.write(`--hosts takes sandbox host counts from 1 to 4, comma-separated (1,2), not ${values.hosts}\n`);
  process.exit(64);
}

const perHost = values['per-host-scenarios'];
if (perHost !== undefined && !/^[1-9]\d*$/.test(perHost)) {
  process.stderr.write(`--per-host-scenarios takes a whole number of at least 1, not ${perHost}\n`);
  process.exit(64);
}

// The realistic fleet at the models' pace; the workers read these as they start.
process.env.TRL_SIM_FLEET_MODE = 'realistic';
process.env.TRL_SIM_FLEET_TIME_SCALE = values['time-scale'];
// Each sandbox host's count cap (and the orchestration worker's slots: once-per-evaluation activities, not a bound).
if (perHost !== undefined) process.env.TRL_MAX_CONCURRENT_ACTIVITIES = perHost;

async function scenarioNames(): Promise<string[]> {
  if (values.scenario?.length) return values.scenario;
  const entries = await readdir(scenariosDir, { withFileTypes: true });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name);
  return names.sort().slice(0, Number(values.scenarios));
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const gib = (bytes: number) => (bytes / 1024 ** 3).toFixed(2);

/** Sum of the model calls' latency in one scenario's call log (gateway/call-log.ts `end` rows). */
async function modelWaitMs(file: string | undefined): Promise<{ ms: number; calls: number }> {
  if (!file) return { ms: 0, calls: 0 };
  let ms = 0;
  let calls = 0;
  for (const line of (await readFile(file, 'utf8').catch(() => '')).split('\n')) {
    if (!line.trim()) continue;
    const row = JSON.parse(line) as { phase?: string; latencyMs?: number };
    if (row.phase === 'end' && typeof row.latencyMs === 'number') {
      ms += row.latencyMs;
      calls++;
    }
  }
  return { ms, calls };
}

const scenarios = await scenarioNames();
const harness = await startHarness({ withWorker: false, simFleetMode: 'realistic' });
const stack = await bootstrap(harness.docker);

interface Arm {
  hosts: number;
  wallMs: number;
  tests: string;
  status: string;
  peakContainersBytes: number;
  peakProcessesBytes: number;
  peakInFlight: number;
  meanInFlight: number;
  modelWaitMs: number;
  modelCalls: number;
  agentWallMs: number;
  verifierWallMs: number;
  cpuByRole: Record<string, number>;
  /** Each scenario's peak memory (MiB) and mean CPU share, sorted. */
  scenarioMemoryMib: number[];
  scenarioCpus: number[];
  taskWaitMs: number;
  claimWaitMs: number;
  /** Cores the machine kept busy (every session's work), mean and 90th percentile over the samples. */
  machineBusyMean: number;
  machineBusyP90: number;
  /** Share of the samples with the machine's cores at least 95 % busy. */
  machineSaturated: number;
  loadMin: number;
  loadMean: number;
  loadMax: number;
  /** CPU seconds of this process and its children (workers, gateways, sim fleets). */
  processCpuS: number;
  series: InFlightSeries;
  /** Scenarios by status (and the first words of their error): what a wall time was made of. */
  outcomes: string;
}

const cores = os.availableParallelism();
const mean = (xs: number[]) => xs.reduce((sum, x) => sum + x, 0) / Math.max(1, xs.length);
const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))]! : 0;
};

function scenarioOutcomes(result: EvaluationResult): string {
  const counts = new Map<string, number>();
  for (const s of result.perScenario) {
    const key = s.error ? `${s.status} (${s.error.slice(0, 60)})` : s.status;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => `${n} ${key}`).join(', ');
}

async function measure(hosts: number): Promise<Arm> {
  const workers = await startSplitRoleWorkers(harness, stack, hosts, `epoch-host-${hosts}`);
  const submissionId = uniqueId(`bench-epoch-${hosts}`);
  const sampler = new EpochSampler(harness.docker, () => evaluationWorkflowId(submissionId));
  try {
    sampler.start();
    const started = performance.now();
    const result: EvaluationResult = await harness.evaluate({
      submissionId,
      pack: { kind: 'directory', path: path.join(examplesDir, values.pack) },
      agent: 'hermes',
      scenarios,
    });
    const wallMs = performance.now() - started;
    sampler.stop();
    const spans = activitySpans(
      (await harness.client.workflow.getHandle(evaluationWorkflowId(submissionId)).fetchHistory()).events ?? [],
    );
    const claims = spans.filter((s) => s.type === 'claimSandboxHost');
    const others = spans.filter((s) => s.type !== 'claimSandboxHost');
    const waits = await Promise.all(result.perScenario.map((s) => modelWaitMs(s.artifacts?.modelCallLog?.path)));
    const samples = sampler.samples;
    const arm: Arm = {
      hosts,
      wallMs,
      tests: `${result.testsPassed}/${result.testsTotal}`,
      status: result.status,
      peakContainersBytes: Math.max(0, ...samples.map((s) => s.containersBytes)),
      peakProcessesBytes: Math.max(0, ...samples.map((s) => s.processesBytes)),
      peakInFlight: Math.max(0, ...samples.map((s) => s.inFlight)),
      meanInFlight: samples.reduce((sum, s) => sum + s.inFlight, 0) / Math.max(1, samples.length),
      modelWaitMs: waits.reduce((sum, w) => sum + w.ms, 0),
      modelCalls: waits.reduce((sum, w) => sum + w.calls, 0),
      agentWallMs: result.perScenario.reduce((sum, s) => sum + s.agentWallMs, 0),
      verifierWallMs: result.perScenario.reduce((sum, s) => sum + s.verifierWallMs, 0),
      cpuByRole: sampler.cpuSecondsByRole(),
      scenarioMemoryMib: [...sampler.perScenario.values()].map((c) => c.memoryBytes / 1024 ** 2).sort((a, b) => a - b),
      scenarioCpus: [...sampler.perScenario.values()].map((c) => c.cpus).sort((a, b) => a - b),
      taskWaitMs: others.reduce((sum, s) => sum + ((s.startedMs ?? s.scheduledMs) - s.scheduledMs), 0),
      claimWaitMs: claims.reduce((sum, s) => sum + ((s.closedMs ?? s.scheduledMs) - s.scheduledMs), 0),
      machineBusyMean: mean(samples.map((s) => s.machineBusyCores)),
      machineBusyP90: quantile(
        samples.map((s) => s.machineBusyCores),
        0.9,
      ),
      machineSaturated: samples.filter((s) => s.machineBusyCores >= 0.95 * cores).length / Math.max(1, samples.length),
      loadMin: Math.min(...samples.map((s) => s.loadAverage)),
      loadMean: mean(samples.map((s) => s.loadAverage)),
      loadMax: Math.max(0, ...samples.map((s) => s.loadAverage)),
      processCpuS: sampler.processCpuSeconds(),
      outcomes: scenarioOutcomes(result),
      series: {
        label: `${hosts} sandbox host${hosts > 1 ? 's' : ''}`,
        points: samples.map((s) => [s.atMs / 1000, s.inFlight]),
      },
    };
    process.stdout.write(
      `${hosts} sandbox host(s): ${result.status}, ${arm.tests} tests, wall ${seconds(wallMs)} s, peak ${arm.peakInFlight} scenarios in flight (mean ${arm.meanInFlight.toFixed(1)})\n`,
    );
    return arm;
  } finally {
    sampler.stop();
    await workers.stop();
  }
}

const arms: Arm[] = [];
for (const hosts of hostCounts) arms.push(await measure(hosts));
await harness.close();

const load = os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
process.stdout.write(
  `\n${scenarios.length} scenarios through Hermes with ${values.pack}, realistic sim fleet at time scale ${values['time-scale']}; ${perHost === undefined ? 'each sandbox host admits by its memory and CPU budget alone' : `each sandbox host admits at most ${perHost} scenarios at once`}; ${cores} cores, ${gib(os.totalmem())} GiB; load average at the end ${load}\n\n`,
);
const base = arms[0]!.wallMs;
process.stdout.write(
  `${renderTable<Arm>(
    [
      { header: 'sandbox hosts', value: (a) => a.hosts, align: 'right' },
      { header: 'status', value: (a) => a.status },
      { header: 'tests', value: (a) => a.tests, align: 'right' },
      { header: 'wall s', value: (a) => seconds(a.wallMs), align: 'right' },
      { header: 'speed-up', value: (a) => `${(base / a.wallMs).toFixed(2)}×`, align: 'right' },
      { header: 'peak in flight', value: (a) => a.peakInFlight, align: 'right' },
      { header: 'mean in flight', value: (a) => a.meanInFlight.toFixed(1), align: 'right' },
      { header: 'peak containers GiB', value: (a) => gib(a.peakContainersBytes), align: 'right' },
      { header: 'peak processes GiB', value: (a) => gib(a.peakProcessesBytes), align: 'right' },
    ],
    arms,
  )}\n\n`,
);
process.stdout.write('where the time went, summed over scenarios (they overlap, so the sums exceed the wall):\n');
process.stdout.write(
  `${renderTable<Arm>(
    [
      { header: 'sandbox hosts', value: (a) => a.hosts, align: 'right' },
      { header: 'agent wall s', value: (a) => seconds(a.agentWallMs), align: 'right' },
      { header: 'waiting on models s', value: (a) => seconds(a.modelWaitMs), align: 'right' },
      { header: 'model calls', value: (a) => a.modelCalls, align: 'right' },
      { header: 'agent CPU s', value: (a) => (a.cpuByRole.agent ?? 0).toFixed(1), align: 'right' },
      { header: 'policy CPU s', value: (a) => (a.cpuByRole.policy ?? 0).toFixed(1), align: 'right' },
      { header: 'verifier wall s', value: (a) => seconds(a.verifierWallMs), align: 'right' },
      { header: 'verifier CPU s', value: (a) => (a.cpuByRole.verifier ?? 0).toFixed(1), align: 'right' },
      { header: 'Temporal: tasks waiting to start s', value: (a) => seconds(a.taskWaitMs), align: 'right' },
      { header: 'claims waiting for a host s', value: (a) => seconds(a.claimWaitMs), align: 'right' },
    ],
    arms,
  )}\n`,
);
process.stdout.write(
  `\nthe machine's CPU while each arm ran (${cores} cores, shared with other sessions) and the evaluation's share of it:\n`,
);
process.stdout.write(
  `${renderTable<Arm>(
    [
      { header: 'sandbox hosts', value: (a) => a.hosts, align: 'right' },
      { header: 'machine busy cores, mean', value: (a) => a.machineBusyMean.toFixed(2), align: 'right' },
      { header: 'p90', value: (a) => a.machineBusyP90.toFixed(2), align: 'right' },
      { header: 'samples ≥ 95 % busy', value: (a) => `${(100 * a.machineSaturated).toFixed(0)} %`, align: 'right' },
      {
        header: 'load average min / mean / max',
        value: (a) => `${a.loadMin.toFixed(1)} / ${a.loadMean.toFixed(1)} / ${a.loadMax.toFixed(1)}`,
        align: 'right',
      },
      {
        header: "evaluation's containers, cores",
        value: (a) => (Object.values(a.cpuByRole).reduce((sum, s) => sum + s, 0) / (a.wallMs / 1000)).toFixed(2),
        align: 'right',
      },
      {
        header: 'workers + sim fleet, cores',
        value: (a) => (a.processCpuS / (a.wallMs / 1000)).toFixed(2),
        align: 'right',
      },
    ],
    arms,
  )}\n`,
);
process.stdout.write(`scenarios: ${arms.map((a) => `${a.hosts} host(s): ${a.outcomes}`).join('; ')}\n`);
const roles = [...new Set(arms.flatMap((a) => Object.keys(a.cpuByRole)))].sort();
process.stdout.write(
  `container CPU by role label (s): ${arms.map((a) => `${a.hosts} host(s): ${roles.map((r) => `${r} ${(a.cpuByRole[r] ?? 0).toFixed(1)}`).join(', ')}`).join('; ')}\n`,
);
const quantiles = (sorted: number[], digits: number) =>
  sorted.length
    ? [0.5, 0.9, 1]
        .map((q) => sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))]!.toFixed(digits))
        .join(' / ')
    : '—';
process.stdout.write(
  `one scenario as the host's admission measures it (agent + policy sidecar + verifier containers), p50 / p90 / max: ${arms
    .map(
      (a) =>
        `${a.hosts} host(s): peak memory ${quantiles(a.scenarioMemoryMib, 0)} MiB, mean CPU ${quantiles(a.scenarioCpus, 3)} cores (${a.scenarioMemoryMib.length} scenarios)`,
    )
    .join('; ')}\n`,
);
await writeFile(
  values.svg,
  inFlightSvg(
    arms.map((a) => a.series),
    `${scenarios.length} scenarios in flight (Hermes, ${values.pack}, time scale ${values['time-scale']})`,
  ),
);
process.stdout.write(`plot: ${path.relative(repoRoot, values.svg)}\n`);
process.exit(0);
