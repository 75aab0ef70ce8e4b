// Temporal's Web UI for a Temporal other than the embedded dev server (which carries its own): the
// UI server built from the Go module github.com/temporalio/ui-server/v2 (its module ships the built
// UI), the same release the dev server's CLI embeds, bound to 127.0.0.1 and pointed at a frontend.
import { openSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { temporalUiServerBuildDir } from '../common/data-layout.ts';
import { say } from '../common/log.ts';
import { isExecutable } from '../common/executable-file.ts';
import { freeLoopbackPort } from '../common/free-loopback-port.ts';
import { buildGoModule } from './go-module-build.ts';

export const temporalUiServerVersion = 'v2.54.1';
const readinessTimeoutMs = 60_000;

export interface TemporalUiServer {
  url: string;
  logFile: string;
  stop(): Promise<void>;
}

export async function ensureTemporalUiServerBinary(): Promise<string> {
  const dir = temporalUiServerBuildDir(temporalUiServerVersion);
  const binary = path.join(dir, 'temporal-ui-server');
  if (await isExecutable(binary)) return binary;
  say(`building Temporal's Web UI server ${temporalUiServerVersion} from its Go module into ${dir} (once)`);
  await buildGoModule({ module: 'github.com/temporalio/ui-server/v2', version: temporalUiServerVersion, outDir: dir, targets: { 'temporal-ui-server': './cmd/server' } });
  return binary;
}

export async function startTemporalUiServer(options: { dir: string; temporalAddress: string; namespace: string; tls?: { caFile: string; certFile: string; keyFile: string } }): Promise<TemporalUiServer> {
  const binary = await ensureTemporalUiServerBinary();
  const configDir = path.join(options.dir, 'config');
  await mkdir(configDir, { recursive: true });
  const port = await freeLoopbackPort();
  await writeFile(path.join(configDir, 'production.yaml'), [
    `temporalGrpcAddress: ${options.temporalAddress}`,
    'host: 127.0.0.1',
    `port: ${port}`,
    'enableUi: true',
    `defaultNamespace: ${options.namespace}`,
    'disableNewsFetch: true',
    'cors:',
    '  cookieInsecure: true',
    ...(options.tls ? ['tls:', `  caFile: ${options.tls.caFile}`, `  certFile: ${options.tls.certFile}`, `  keyFile: ${options.tls.keyFile}`, '  enableHostVerification: true', '  serverName: localhost'] : []),
    '',
  ].join('\n'));
  const logFile = path.join(options.dir, 'ui-server.log');
  const log = openSync(logFile, 'a');
  const child = spawn(binary, ['--root', options.dir, '--config', 'config', '--env', 'production', 'start'], { stdio: ['ignore', log, log] });
  let exited: number | null = null;
  child.on('exit', (code) => { exited = code ?? -1; });
  const url = `http://127.0.0.1:${port}`;
  const stop = () => new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
  const deadline = performance.now() + readinessTimeoutMs;
  for (;;) {
    if (exited !== null) throw new Error(`the Web UI server exited with ${exited}; see ${logFile}`);
    const ready = await fetch(`${url}/api/v1/settings`, { signal: AbortSignal.timeout(1000) }).then((response) => response.ok, () => false);
    if (ready) return { url, logFile, stop };
    if (performance.now() > deadline) {
      await stop();
      throw new Error(`the Web UI server did not answer on ${url} within ${readinessTimeoutMs / 1000} s; see ${logFile}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
