// A Temporal dev server of the test's own (free port, its own SQLite file, no Web UI), so a test can
// stop and start it mid-evaluation without touching the shared one on 7233.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureTemporalCli } from '../../infra/temporal-cli.ts';
import { probeFrontend } from '../../infra/temporal-server.ts';
import { waitFor } from '../support/worker-process.ts';
import { freeLoopbackPort as freePort } from '../../common/free-loopback-port.ts';

export interface OwnTemporalServer {
  address: string;
  start(): Promise<void>;
  /** SIGTERM, as a service manager stops it; resolves once the process is gone. */
  stop(): Promise<void>;
  /** Stops it and deletes its files. */
  destroy(): Promise<void>;
}

export async function ownTemporalServer(): Promise<OwnTemporalServer> {
  const binary = await ensureTemporalCli();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'trl-faults-temporal-'));
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const server: OwnTemporalServer = {
    address,
    async start() {
      const log = openSync(path.join(dir, 'server.log'), 'a');
      child = spawn(
        binary,
        [
          'server',
          'start-dev',
          '--ip',
          '127.0.0.1',
          '--port',
          String(port),
          '--headless',
          '--db-filename',
          path.join(dir, 'temporal.db'),
          '--namespace',
          'default',
          '--log-level',
          'warn',
        ],
        { stdio: ['ignore', log, log] },
      );
      await waitFor(
        async () => ((await probeFrontend(address)) ? true : undefined),
        60_000,
        `the Temporal server on ${address}`,
      );
    },
    async stop() {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    },
    async destroy() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}
