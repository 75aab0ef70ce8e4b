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
import { stopChildProcess } from '../common/stop-child-process.ts';
import { waitUntilReady } from '../common/wait-until-ready.ts';

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
  await buildGoModule({
    module: 'github.com/temporalio/ui-server/v2',
    version: temporalUiServerVersion,
    outDir: dir,
    targets: { 'temporal-ui-server': './cmd/server' },
  });
  return binary;
}

export async function startTemporalUiServer(options: {
  dir: string;
  temporalAddress: string;
  namespace: string;
  tls?: { caFile: string; certFile: string; keyFile: string };
}): Promise<TemporalUiServer> {
  const binary = await ensureTemporalUiServerBinary();
  const configDir = path.join(options.dir, 'config');
  await mkdir(configDir, { recursive: true });
  const port = await freeLoopbackPort();
  await writeFile(
    path.join(configDir, 'production.yaml'),
    [
      `temporalGrpcAddress: ${options.temporalAddress}`,
      'host: 127.0.0.1',
      `port: ${port}`,
      'enableUi: true',
      `defaultNamespace: ${options.namespace}`,
      'disableNewsFetch: true',
      'cors:',
      '  cookieInsecure: true',
      ...(options.tls
        ? [
            'tls:',
            `  caFile: ${options.tls.caFile}`,
            `  certFile: ${options.tls.certFile}`,
            `  keyFile: ${options.tls.keyFile}`,
            '  enableHostVerification: true',
            '  serverName: localhost',
          ]
        : []),
      '',
    ].join('\n'),
  );
  const logFile = path.join(options.dir, 'ui-server.log');
  const log = openSync(logFile, 'a');
  const child = spawn(binary, ['--root', options.dir, '--config', 'config', '--env', 'production', 'start'], {
    stdio: ['ignore', log, log],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = () => stopChildProcess(child, { graceMs: 5000 });
  try {
    const probe = () =>
      fetch(`${url}/api/v1/settings`, { signal: AbortSignal.timeout(1000) }).then(
        (response) => response.ok,
        () => false,
      );
    await waitUntilReady({ what: `the Web UI server on ${url}`, child, probe, timeoutMs: readinessTimeoutMs, logFile });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, logFile, stop };
}
