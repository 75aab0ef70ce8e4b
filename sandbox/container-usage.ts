// What a scenario's containers (agent, policy sidecar, verifier) really use on this host, for the
// host's admission (activities/host-admission.ts): every few seconds the containers this worker owns
// are listed by their labels (workflow id + scenario name = the claim's key), and each one's peak
// memory and CPU time read from its cgroup (cgroup v1 `memory.max_usage_in_bytes`, `cpuacct.usage`;
// v2 `memory.peak` or `memory.current`, `cpu.stat`), or from Docker's stats when the files are not
// on this machine. A scenario's memory is the largest sum over its live containers' peaks; its CPU
// the CPU time of all its containers over its life so far.
import { readFile } from 'node:fs/promises';
import type Docker from 'dockerode';
import { containerLabels } from './container-labels.ts';
import type { WorkerIdentity } from './worker-identity.ts';
import { repeatWithoutOverlap } from '../common/repeat-without-overlap.ts';

/** What a scenario's containers used: peak memory, mean cores (activities/host-admission.ts ScenarioCost's shape). */
export interface ScenarioUsage {
  memoryBytes: number;
  cpus: number;
}

export interface ContainerReading {
  memoryPeakBytes: number;
  cpuNs: number;
}

const cgroupRoot = '/sys/fs/cgroup';

async function readNumber(file: string): Promise<number | undefined> {
  try {
    const value = Number((await readFile(file, 'utf8')).trim());
    return Number.isFinite(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** cpu.stat's `usage_usec` (cgroup v2) in nanoseconds. */
export function cpuStatUsageNs(text: string): number | undefined {
  const match = /^usage_usec (\d+)$/m.exec(text);
  return match ? Number(match[1]) * 1000 : undefined;
}

/** One container's peak memory and CPU time from its cgroup files, where Docker keeps them (cgroupfs or systemd
 * driver, v1 or v2). */
export async function readContainerCgroup(id: string, root = cgroupRoot): Promise<ContainerReading | undefined> {
  for (const parent of ['docker', 'system.slice']) {
    const name = parent === 'docker' ? id : `docker-${id}.scope`;
    const v1Memory = await readNumber(`${root}/memory/${parent}/${name}/memory.max_usage_in_bytes`);
    if (v1Memory !== undefined) {
      const cpuNs = (await readNumber(`${root}/cpuacct/${parent}/${name}/cpuacct.usage`)) ?? 0;
      return { memoryPeakBytes: v1Memory, cpuNs };
    }
    const v2 = `${root}/${parent}/${name}`;
    const v2Memory = (await readNumber(`${v2}/memory.peak`)) ?? (await readNumber(`${v2}/memory.current`));
    if (v2Memory !== undefined) {
      const cpuNs = cpuStatUsageNs(await readFile(`${v2}/cpu.stat`, 'utf8').catch(() => '')) ?? 0;
      return { memoryPeakBytes: v2Memory, cpuNs };
    }
  }
  return undefined;
}

/** The same from Docker's stats (a remote engine, or cgroup files this process cannot see). */
async function readContainerStats(docker: Docker, id: string): Promise<ContainerReading | undefined> {
  try {
    const stats = (await docker.getContainer(id).stats({ stream: false, 'one-shot': true } as { stream: false })) as {
      memory_stats?: { max_usage?: number; usage?: number };
      cpu_stats?: { cpu_usage?: { total_usage?: number } };
    };
    const memory = stats.memory_stats?.max_usage ?? stats.memory_stats?.usage;
    if (memory === undefined) return undefined;
    return { memoryPeakBytes: memory, cpuNs: stats.cpu_stats?.cpu_usage?.total_usage ?? 0 };
  } catch {
    return undefined;
  }
}

interface ScenarioTrack {
  firstSeenMs: number;
  cpuNsByContainer: Map<string, number>;
  peakMemoryBytes: number;
}

/** Per scenario (claim key), what its containers used so far. */
export class ContainerUsage {
  private readonly tracks = new Map<string, ScenarioTrack>();

  constructor(
    private readonly docker: Docker,
    private readonly owner: Pick<WorkerIdentity, 'id'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Reads every container of this worker that belongs to a scenario; returns each scenario's cost so far. */
  async sample(): Promise<Map<string, ScenarioUsage>> {
    const listed = await this.docker.listContainers({
      filters: { label: [`${containerLabels.workerId}=${this.owner.id}`, containerLabels.scenario] },
    });
    const memoryNow = new Map<string, number>();
    const seen = new Set<string>();
    await Promise.all(
      listed.map(async (info) => {
        const workflowId = info.Labels?.[containerLabels.workflowId];
        const scenario = info.Labels?.[containerLabels.scenario];
        if (!workflowId || !scenario) return;
        const reading = (await readContainerCgroup(info.Id)) ?? (await readContainerStats(this.docker, info.Id));
        if (!reading) return;
        const key = `${workflowId}/${scenario}`;
        seen.add(key);
        const track = this.tracks.get(key) ?? {
          firstSeenMs: this.now(),
          cpuNsByContainer: new Map(),
          peakMemoryBytes: 0,
        };
        this.tracks.set(key, track);
        track.cpuNsByContainer.set(info.Id, reading.cpuNs);
        memoryNow.set(key, (memoryNow.get(key) ?? 0) + reading.memoryPeakBytes);
      }),
    );
    const costs = new Map<string, ScenarioUsage>();
    for (const [key, track] of this.tracks) {
      track.peakMemoryBytes = Math.max(track.peakMemoryBytes, memoryNow.get(key) ?? 0);
      const cpuNs = [...track.cpuNsByContainer.values()].reduce((sum, ns) => sum + ns, 0);
      const lifeMs = Math.max(1000, this.now() - track.firstSeenMs);
      costs.set(key, { memoryBytes: track.peakMemoryBytes, cpus: cpuNs / 1e6 / lifeMs });
      // A scenario none of whose containers is left is forgotten after a while (its claim has ended by then).
      if (!seen.has(key) && this.now() - track.firstSeenMs > 30 * 60_000) this.tracks.delete(key);
    }
    return costs;
  }

  /** Forgets a scenario (its claim ended). */
  forget(key: string): void {
    this.tracks.delete(key);
  }
}

/** Samples every `intervalMs` and hands each scenario's cost to `observe`; stop() ends it. */
export function sampleContainerUsage(
  usage: ContainerUsage,
  observe: (key: string, cost: ScenarioUsage) => void,
  intervalMs = 2000,
): { stop(): void } {
  return repeatWithoutOverlap(async () => {
    for (const [key, cost] of await usage.sample()) observe(key, cost);
  }, intervalMs);
}

/** Every `intervalMs`, the cores one container used since the last reading (its cgroup's CPU time over the wall time
 * between two readings), handed to `report`; nothing when its cgroup cannot be read here. stop() ends it. */
export function watchContainerCores(
  id: string,
  report: (cores: number) => void,
  intervalMs = 2000,
  read: (id: string) => Promise<ContainerReading | undefined> = readContainerCgroup,
  now: () => number = () => performance.now(),
): { stop(): void } {
  let last: { cpuNs: number; atMs: number } | undefined;
  return repeatWithoutOverlap(async () => {
    const reading = await read(id);
    const atMs = now();
    if (!reading) return;
    if (last && atMs > last.atMs) report(Math.max(0, reading.cpuNs - last.cpuNs) / 1e6 / (atMs - last.atMs));
    last = { cpuNs: reading.cpuNs, atMs };
  }, intervalMs);
}
