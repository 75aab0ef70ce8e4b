// Which test file of a `trl test` run a process or a container belongs to, and what each file cost:
// the pure part of bench/suite-cpu.ts. A test file is a process whose command line names a
// *.test.ts (the unit batch's too); its workers, sim fleet and `trl` commands are its descendants;
// a container belongs to the file whose process tree holds the worker that labelled it
// (trl.worker-pid).

export interface ProcessRow {
  pid: number;
  ppid: number;
  /** utime + stime of the process itself, seconds. */
  cpuSeconds: number;
  args: string[];
}

/** The test file a command line runs, if it is one (the runner itself is not). */
export function testFileOf(args: string[]): string | undefined {
  if (args.some((a) => a.endsWith('test-runner.ts'))) return undefined;
  return [...args].reverse().find((a) => a.endsWith('.test.ts'));
}

/** Each process's test file, found through its ancestors. */
export function attributeProcesses(rows: ProcessRow[]): Map<number, string> {
  const byPid = new Map(rows.map((row) => [row.pid, row]));
  const found = new Map<number, string | undefined>();
  const fileOf = (pid: number, depth = 0): string | undefined => {
    if (found.has(pid)) return found.get(pid);
    const row = byPid.get(pid);
    if (!row || depth > 64) return undefined;
    const file = testFileOf(row.args) ?? fileOf(row.ppid, depth + 1);
    found.set(pid, file);
    return file;
  };
  const owners = new Map<number, string>();
  for (const row of rows) {
    const file = fileOf(row.pid);
    if (file) owners.set(row.pid, file);
  }
  return owners;
}

export interface FileCost {
  file: string;
  wallSeconds: number;
  processCpuSeconds: number;
  containerCpuSeconds: number;
  containers: number;
}

/** What the sampler kept: each process's last CPU reading and file, each file's first and last sighting, each
 * container's last CPU reading and file. */
export interface SamplerState {
  processes: Map<number, { file: string; cpuSeconds: number }>;
  seen: Map<string, { firstMs: number; lastMs: number }>;
  containers: Map<string, { file?: string; cpuSeconds: number }>;
}

/** Each file's cost, largest CPU first; containers of no file of the run under '(not this run)'. */
export function fileCosts(state: SamplerState): FileCost[] {
  const costs = new Map<string, FileCost>();
  const cost = (file: string) => {
    let entry = costs.get(file);
    if (!entry) {
      const seen = state.seen.get(file);
      entry = {
        file,
        wallSeconds: seen ? (seen.lastMs - seen.firstMs) / 1000 : 0,
        processCpuSeconds: 0,
        containerCpuSeconds: 0,
        containers: 0,
      };
      costs.set(file, entry);
    }
    return entry;
  };
  for (const { file, cpuSeconds } of state.processes.values()) cost(file).processCpuSeconds += cpuSeconds;
  for (const { file, cpuSeconds } of state.containers.values()) {
    const entry = cost(file ?? '(not this run)');
    entry.containerCpuSeconds += cpuSeconds;
    entry.containers += 1;
  }
  return [...costs.values()].sort(
    (a, b) => b.processCpuSeconds + b.containerCpuSeconds - (a.processCpuSeconds + a.containerCpuSeconds),
  );
}
