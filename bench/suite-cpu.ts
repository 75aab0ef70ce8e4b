// `./trl test` with each test file's cost beside it: wall seconds (the life of the file's process),
// CPU-seconds of its process tree (its workers, sim fleet, `trl` commands) and of the containers its
// workers labelled (cpuacct cgroups), read every 250 ms; the machine's CPU (/proc/stat) and load
// average over the run. A process that starts and ends between two readings is missed, so the sums
// are below what the machine spent. Prints a table (largest first) and writes the figures as JSON.
//
//   node --import tsx bench/suite-cpu.ts [--json FILE] [--top N] [-- TRL-TEST-ARGS…]
import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../common/data-layout.ts';
import { createDockerClient } from '../sandbox/docker-client.ts';
import { containerLabels } from '../sandbox/container-labels.ts';
import { readContainerCgroup } from '../sandbox/container-usage.ts';
import { renderTable } from '../cli/render-table.ts';
import { unitBatchFileName } from '../cli/commands/test-batch.ts';
import { attributeProcesses, fileCosts, type ProcessRow, type SamplerState } from './suite-cpu-attribution.ts';

const { values, positionals } = parseArgs({
  options: { json: { type: 'string' }, top: { type: 'string', default: '30' } },
  allowPositionals: true,
});
const ticksPerSecond = 100; // USER_HZ on Linux

async function processRows(args: Map<string, string[]>): Promise<ProcessRow[]> {
  const rows: ProcessRow[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => undefined);
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const key = `${name}:${fields[19]}`; // pid and start time: a reused pid is another process
    let argv = args.get(key);
    if (!argv) {
      argv = (await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '')).split('\0');
      args.set(key, argv);
    }
    rows.push({
      pid: Number(name),
      ppid: Number(fields[1]),
      cpuSeconds: (Number(fields[11]) + Number(fields[12])) / ticksPerSecond,
      args: argv,
    });
  }
  return rows;
}

async function machineCpu(): Promise<{ busy: number; idle: number }> {
  const [, ...ticks] = (await readFile('/proc/stat', 'utf8')).split('\n')[0]!.trim().split(/\s+/).map(Number);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  return { busy: (ticks.reduce((a, b) => a + b, 0) - idle) / ticksPerSecond, idle: idle / ticksPerSecond };
}

const relative = (file: string) =>
  path.basename(file) === unitBatchFileName
    ? '(unit batch)'
    : file.startsWith(repoRoot + path.sep)
      ? path.relative(repoRoot, file)
      : file;
const docker = createDockerClient();
const labels = new Map<string, Record<string, string>>();
const events = await docker.getEvents({ filters: { type: ['container'], event: ['create'] } });
events.on('data', (chunk: Buffer) => {
  for (const line of chunk.toString().split('\n').filter(Boolean)) {
    const event = JSON.parse(line) as { id?: string; Actor?: { Attributes?: Record<string, string> } };
    if (event.id) labels.set(event.id, event.Actor?.Attributes ?? {});
  }
});

const state: SamplerState = { processes: new Map(), seen: new Map(), containers: new Map() };
const args = new Map<string, string[]>();
const owners = new Map<number, string>();
const loads: number[] = [];
const startMs = performance.now();
const cpuBefore = await machineCpu();
let sampling = true;
const sample = async () => {
  const rows = await processRows(args);
  for (const [pid, file] of attributeProcesses(rows)) owners.set(pid, file);
  const now = performance.now() - startMs;
  for (const row of rows) {
    const file = owners.get(row.pid);
    if (!file) continue;
    state.processes.set(row.pid, { file, cpuSeconds: row.cpuSeconds });
    if (row.args.some((a) => a === file || a.endsWith(path.sep + path.basename(file)))) {
      const seen = state.seen.get(file);
      state.seen.set(file, { firstMs: seen?.firstMs ?? now, lastMs: now });
    }
  }
  const ids = await readdir('/sys/fs/cgroup/cpuacct/docker').catch(() => [] as string[]);
  for (const id of new Set([...ids.filter((name) => /^[0-9a-f]{64}$/.test(name)), ...labels.keys()])) {
    const reading = await readContainerCgroup(id);
    if (!reading) continue;
    const known = state.containers.get(id);
    const workerPid = Number(labels.get(id)?.[containerLabels.workerPid]);
    const file = known?.file ?? (workerPid ? owners.get(workerPid) : undefined);
    state.containers.set(id, { file, cpuSeconds: Math.max(known?.cpuSeconds ?? 0, reading.cpuNs / 1e9) });
  }
};
const sampler = (async () => {
  let lastLoad = -Infinity;
  while (sampling) {
    await sample();
    if (performance.now() - lastLoad > 10_000) {
      loads.push(os.loadavg()[0]!);
      lastLoad = performance.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
})();

const child = spawn(path.join(repoRoot, 'trl'), ['test', ...positionals], { cwd: repoRoot, stdio: 'inherit' });
const forward = (signal: NodeJS.Signals) => child.kill(signal);
process.on('SIGINT', forward).on('SIGTERM', forward);
const code = await new Promise<number>((resolve) => child.on('close', (exit) => resolve(exit ?? 1)));
sampling = false;
await sampler;
(events as unknown as { destroy(): void }).destroy();
const wallSeconds = (performance.now() - startMs) / 1000;
const cpuAfter = await machineCpu();

const costs = fileCosts(state).map((c) => ({ ...c, file: relative(c.file) }));
const ours = costs.filter((c) => !c.file.startsWith('/') && c.file !== '(not this run)');
const sum = (rows: typeof costs, pick: (c: (typeof costs)[number]) => number) => rows.reduce((a, c) => a + pick(c), 0);
const sortedLoads = [...loads].sort((a, b) => a - b);
const summary = {
  exitCode: code,
  wallSeconds: Math.round(wallSeconds),
  machineCpuSeconds: Math.round(cpuAfter.busy - cpuBefore.busy),
  machineIdleSeconds: Math.round(cpuAfter.idle - cpuBefore.idle),
  testFiles: ours.length,
  processCpuSeconds: Math.round(sum(ours, (c) => c.processCpuSeconds)),
  containerCpuSeconds: Math.round(sum(ours, (c) => c.containerCpuSeconds)),
  otherContainersCpuSeconds: Math.round(
    sum(costs, (c) => c.containerCpuSeconds) - sum(ours, (c) => c.containerCpuSeconds),
  ),
  loadAverage: {
    min: sortedLoads[0],
    median: sortedLoads[Math.floor(sortedLoads.length / 2)],
    max: sortedLoads.at(-1),
  },
};
const one = (n: number) => n.toFixed(1);
process.stdout.write(
  `\n${renderTable(
    [
      { header: 'file', value: (c) => c.file },
      { header: 'wall s', value: (c) => one(c.wallSeconds), align: 'right' },
      { header: 'CPU-s processes', value: (c) => one(c.processCpuSeconds), align: 'right' },
      { header: 'CPU-s containers', value: (c) => one(c.containerCpuSeconds), align: 'right' },
      { header: 'containers', value: (c) => c.containers, align: 'right' },
    ],
    ours.slice(0, Number(values.top)),
  )}\n${JSON.stringify(summary, null, 1)}\n`,
);
if (values.json) await writeFile(values.json, `${JSON.stringify({ summary, files: costs }, null, 1)}\n`);
process.exit(code);
