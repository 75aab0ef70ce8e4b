// What bench/epoch.ts samples every few seconds while an evaluation runs: the scenarios in flight
// (those with a live container of the evaluation), the memory of its containers plus this process and
// its children (workers, the sim fleet), the CPU time of the containers by role (agent, policy,
// verifier) and of this process tree, and the machine's busy cores and load average (other sessions
// share it: whether the machine's CPU, not the hosts' admission, bounds a run).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type Docker from 'dockerode';
import { containerLabels } from '../sandbox/container-labels.ts';
import { ContainerUsage, readContainerCgroup, type ScenarioUsage } from '../sandbox/container-usage.ts';
import { currentWorkerIdentity } from '../sandbox/worker-identity.ts';
import { readFile } from 'node:fs/promises';
import os from 'node:os';

export interface EpochSample {
  atMs: number;
  inFlight: number;
  containersBytes: number;
  processesBytes: number;
  /** Cores the whole machine kept busy since the previous sample (/proc/stat), every session's work. */
  machineBusyCores: number;
  loadAverage: number;
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const ticksPerSecond = 100;

/** The machine's busy and total CPU ticks so far, summed over its cores (/proc/stat's first line). */
async function machineTicks(): Promise<{ busy: number; total: number }> {
  const line = (await readFile('/proc/stat', 'utf8')).split('\n')[0] ?? '';
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, n) => sum + n, 0);
  // idle and iowait are the 4th and 5th.
  return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total };
}

/** A process's user + system CPU ticks so far (/proc/<pid>/stat fields 14 and 15), 0 once it is gone. */
async function processTicks(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(after[11] ?? 0) + Number(after[12] ?? 0);
}

/** The resident memory of this process and every process below it, from `ps`, and their pids. */
async function processTree(): Promise<{ bytes: number; pids: number[] }> {
  const { stdout } = await promisify(execFile)('ps', ['-e', '-o', 'pid=,ppid=,rss=']);
  const rows = stdout
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number, number]);
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of rows) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const rss = new Map(rows.map(([pid, , kib]) => [pid, kib * 1024]));
  let total = 0;
  const pids: number[] = [];
  const stack = [process.pid];
  while (stack.length) {
    const pid = stack.pop()!;
    pids.push(pid);
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return { bytes: total, pids };
}

/** A container's memory now (not its peak): cgroup v1 usage, else v2 current. */
async function currentMemory(id: string): Promise<number> {
  for (const file of [
    `/sys/fs/cgroup/memory/docker/${id}/memory.usage_in_bytes`,
    `/sys/fs/cgroup/system.slice/docker-${id}.scope/memory.current`,
  ]) {
    const value = Number((await readFile(file, 'utf8').catch(() => '')).trim());
    if (value > 0) return value;
  }
  return 0;
}

export class EpochSampler {
  readonly samples: EpochSample[] = [];
  /** CPU time in ns of each container seen, with its role. */
  private readonly cpu = new Map<string, { role: string; ns: number }>();
  /** CPU ticks of each process of this tree seen (the highest reading: a process that exits keeps its last). */
  private readonly processCpu = new Map<number, number>();
  private readonly processCpuAtStart = new Map<number, number>();
  private machine: { busy: number; total: number } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly started = performance.now();
  /** Each scenario's peak memory and mean CPU share, as a sandbox host measures them for its admission. */
  private readonly usage: ContainerUsage;
  readonly perScenario = new Map<string, ScenarioUsage>();

  constructor(
    private readonly docker: Docker,
    private readonly workflowId: () => string | undefined,
  ) {
    this.usage = new ContainerUsage(docker, currentWorkerIdentity());
  }

  start(intervalMs = 2000): void {
    // The tree's CPU before the evaluation (the harness, earlier runs) is not the evaluation's.
    void processTree().then(async ({ pids }) => {
      for (const pid of pids) this.processCpuAtStart.set(pid, await processTicks(pid));
    });
    void machineTicks().then((ticks) => {
      this.machine ??= ticks;
    });
    let busy = false;
    this.timer = setInterval(() => {
      if (busy) return;
      busy = true;
      this.sample()
        .catch(() => undefined)
        .finally(() => {
          busy = false;
        });
    }, intervalMs);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async sample(): Promise<void> {
    const workflowId = this.workflowId();
    const listed = workflowId
      ? await this.docker.listContainers({ filters: { label: [`${containerLabels.workflowId}=${workflowId}`] } })
      : [];
    const scenarios = new Set<string>();
    let containersBytes = 0;
    await Promise.all(
      listed.map(async (info) => {
        const scenario = info.Labels?.[containerLabels.scenario];
        if (scenario) scenarios.add(scenario);
        // Read first, then added: `x += await …` would add to the value x had before the await.
        const bytes = await currentMemory(info.Id);
        containersBytes += bytes;
        const reading = await readContainerCgroup(info.Id);
        if (reading) this.cpu.set(info.Id, { role: info.Labels?.[containerLabels.role] ?? '?', ns: reading.cpuNs });
      }),
    );
    const prefix = `${workflowId}/`;
    for (const [key, cost] of await this.usage.sample())
      if (key.startsWith(prefix)) {
        const seen = this.perScenario.get(key);
        this.perScenario.set(key, {
          memoryBytes: Math.max(seen?.memoryBytes ?? 0, cost.memoryBytes),
          cpus: cost.cpus,
        });
      }
    const tree = await processTree();
    for (const pid of tree.pids) {
      const ticks = await processTicks(pid);
      if (ticks > (this.processCpu.get(pid) ?? 0)) this.processCpu.set(pid, ticks);
    }
    const machine = await machineTicks();
    const previous = this.machine ?? machine;
    this.machine = machine;
    const cores = os.availableParallelism();
    this.samples.push({
      atMs: performance.now() - this.started,
      inFlight: scenarios.size,
      containersBytes,
      processesBytes: tree.bytes,
      machineBusyCores:
        machine.total > previous.total
          ? (cores * (machine.busy - previous.busy)) / (machine.total - previous.total)
          : 0,
      loadAverage: os.loadavg()[0] ?? 0,
    });
  }

  /** CPU seconds of this process and its children (workers, gateways, sim fleets) since start(). */
  processCpuSeconds(): number {
    let ticks = 0;
    for (const [pid, seen] of this.processCpu) ticks += seen - (this.processCpuAtStart.get(pid) ?? 0);
    return ticks / ticksPerSecond;
  }

  /** CPU seconds of the containers seen, by role. */
  cpuSecondsByRole(): Record<string, number> {
    const byRole: Record<string, number> = {};
    for (const { role, ns } of this.cpu.values()) byRole[role] = (byRole[role] ?? 0) + ns / 1e9;
    return byRole;
  }
}
