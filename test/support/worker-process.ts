// An all-in-one worker in a process of its own, so a test can SIGKILL it mid-run, and a poll
// helper for what the test waits on afterwards.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../common/data-layout.ts';

/** Starts the worker and resolves once it polls; `env` overrides (undefined removes) variables. */
export function startWorkerProcess(
  taskQueue: string,
  env: Record<string, string | undefined> = {},
): Promise<ChildProcess> {
  const pidFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'trl-worker-')), 'worker.pid');
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    TRL_TASK_QUEUE: taskQueue,
    TRL_WORKER_PID_FILE: pidFile,
    TRL_QUIET: '1',
    // The suite's figures (turns, costs) are fast mode's; a test that wants the realistic fleet says so in `env`.
    TRL_SIM_FLEET_MODE: 'fast',
  };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete childEnv[name];
    else childEnv[name] = value;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'workers', 'all-in-one.ts')], {
    cwd: repoRoot,
    env: childEnv,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('worker polling')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`worker exited with ${code}: ${stderr}`)));
  });
}

/** Worker processes a test starts, remembered so that its `after` kills whichever still run. */
export function workerProcesses(): { start: typeof startWorkerProcess; killAll(): void } {
  const started: ChildProcess[] = [];
  return {
    async start(taskQueue, env) {
      const child = await startWorkerProcess(taskQueue, env);
      started.push(child);
      return child;
    },
    killAll() {
      for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

export async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}
