// What bench/epoch.ts samples every few seconds while an evaluation runs: the scenarios in flight
// (those with a live container of the evaluation), the memory of its containers plus this process and
// its children (workers, the sim fleet), and the CPU time of the containers by role (agent, policy,
// verifier).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type Docker from 'dockerode';
import { containerLabels } from '../sandbox/container-labels.ts';
import { ContainerUsage, readContainerCgroup, type ScenarioUsage } from '../sandbox/container-usage.ts';
import { currentWorkerIdentity } from '../sandbox/worker-identity.ts';
import { readFile } from 'node:fs/promises';

export interface EpochSample {
  atMs: number;
  inFlight: number;
  containersBytes: number;
  processesBytes: number;
}

/** The resident memory of this process and every process below it, from `ps`. */
async function processTreeBytes(): Promise<number> {
  const { stdout } = await promisify(execFile)('ps', ['-e', '-o', 'pid=,ppid=,rss=']);
  const rows = stdout
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number, number]);
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of rows) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const rss = new Map(rows.map(([pid, , kib]) => [pid, kib * 1024]));
  let total = 0;
  const stack = [process.pid];
  while (stack.length) {
    const pid = stack.pop()!;
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
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
    this.samples.push({
      atMs: performance.now() - this.started,
      inFlight: scenarios.size,
      containersBytes,
      processesBytes: await processTreeBytes(),
    });
  }

  /** CPU seconds of the containers seen, by role. */
  cpuSecondsByRole(): Record<string, number> {
    const byRole: Record<string, number> = {};
    for (const { role, ns } of this.cpu.values()) byRole[role] = (byRole[role] ?? 0) + ns / 1e9;
    return byRole;
  }
}
