// A real Subtensor runtime on 127.0.0.1 for tests: @acala-network/chopsticks booting a raw chain
// spec (no network, no fork), one block per extrinsic. It runs in its own process group so
// stopping it leaves no child behind, even when the test process exits early.
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../../common/data-layout.ts';
import { freeLoopbackPort } from '../../../common/free-loopback-port.ts';

export interface ChopsticksNode {
  endpoint: string;
  port: number;
  logFile: string;
  /** The last lines of chopsticks' log, for failure messages. */
  logTail(lines?: number): string;
  stop(): Promise<void>;
}

export interface ChopsticksOptions {
  genesisFile: string;
  /** Chopsticks `import-storage`: `{ Pallet: { Item: value | [[keys], value][] } }`. */
  importStorage: Record<string, unknown>;
  /** Where the storage file and the log go. */
  workDirectory: string;
  bootTimeoutMs?: number;
}

const chopsticksCli = path.join(repoRoot, 'node_modules', '@acala-network', 'chopsticks', 'chopsticks.cjs');

async function answersRpc(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'chain_getHeader', params: [] }),
      signal: AbortSignal.timeout(2_000),
    });
    const body = (await response.json()) as { result?: { number?: string } };
    return typeof body.result?.number === 'string';
  } catch {
    return false;
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

export async function startChopsticks(options: ChopsticksOptions): Promise<ChopsticksNode> {
  const port = await freeLoopbackPort();
  const storageFile = path.join(options.workDirectory, 'chopsticks-storage.json');
  const logFile = path.join(options.workDirectory, 'chopsticks.log');
  writeFileSync(storageFile, JSON.stringify(options.importStorage, null, 2));
  const logDescriptor = openSync(logFile, 'a');
  const child = spawn(
    process.execPath,
    [
      chopsticksCli,
      '--genesis',
      options.genesisFile,
      '--build-block-mode',
      'Instant',
      '--allow-unresolved-imports',
      '--import-storage',
      storageFile,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    { detached: true, stdio: ['ignore', logDescriptor, logDescriptor], cwd: options.workDirectory },
  );
  closeSync(logDescriptor);
  const killOnExit = () => killGroup(child, 'SIGKILL');
  process.once('exit', killOnExit);

  const logTail = (lines = 30) => {
    try {
      return readFileSync(logFile, 'utf8').split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  };
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + (options.bootTimeoutMs ?? 90_000);
  while (!(await answersRpc(port))) {
    if (child.exitCode !== null)
      throw new Error(`chopsticks exited with code ${child.exitCode} before answering:\n${logTail()}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `chopsticks did not answer on port ${port} within ${options.bootTimeoutMs ?? 90_000} ms:\n${logTail()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { endpoint: `ws://127.0.0.1:${port}`, port, logFile, logTail, stop };
}
