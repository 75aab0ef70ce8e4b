// A real S3-compatible server for the blob store's tests: moto's server mode (PyPI `moto[server]`,
// Apache-2.0), in a venv under .cache, started per test on 127.0.0.1 only.
//
// Why moto and not MinIO: moto installs from PyPI in about 50 s as plain wheels, speaks the S3 REST
// API the SDK uses (path-style, HEAD/GET/PUT, NoSuchKey/NotFound), and keeps its state in memory, so
// each test starts clean. MinIO does build here from its Go module (no semver release is listed, so
// `@latest` is a pseudo-version; checked: v0.0.0-20260212201848-7aac2a2c5b7c with Go 1.26.8), but it
// fetched about 360 MB of modules and took 14 min wall (4.4 min CPU, 1.5 GB RSS) on this machine for
// a 150 MB binary, and it is AGPL. The same contract test passed against that MinIO build once, by
// hand. moto does not check `x-amz-checksum-sha256` on upload (MinIO was seen refusing a mismatch
// with XAmzContentChecksumMismatch); the store verifies every read itself, which the tests show.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { motoVenvDir } from '../common/data-layout.ts';
import { say } from '../common/log.ts';
import { runCommand } from '../common/run-command.ts';
import { isExecutable } from '../common/executable-file.ts';
import { freeLoopbackPort } from '../common/free-loopback-port.ts';
import { stopChildProcess } from '../common/stop-child-process.ts';

export const motoVersion = '5.2.5';
const readinessTimeoutMs = 60_000;

export const motoServerFile = path.join(motoVenvDir(motoVersion), 'bin', 'moto_server');

/** The installed `moto_server`, or undefined (the tests then skip and say how to install it). */
export async function installedMotoServer(): Promise<string | undefined> {
  return (await isExecutable(motoServerFile)) ? motoServerFile : undefined;
}

/** Installs moto's server into its venv once; part of `bootstrapForTests` (what `trl test` runs). */
export async function ensureMotoServer(): Promise<string> {
  const installed = await installedMotoServer();
  if (installed) return installed;
  const venv = motoVenvDir(motoVersion);
  say(`installing moto[server]==${motoVersion} (the S3-compatible test server) into ${venv}`);
  await mkdir(path.dirname(venv), { recursive: true });
  await runCommand('python3', ['-m', 'venv', venv]);
  await runCommand(path.join(venv, 'bin', 'pip'), [
    'install',
    '--quiet',
    '--disable-pip-version-check',
    `moto[server]==${motoVersion}`,
  ]);
  if (!(await isExecutable(motoServerFile)))
    throw new Error(`pip installed moto[server]==${motoVersion} but left no ${motoServerFile}`);
  return motoServerFile;
}

export interface S3TestServer {
  /** `http://127.0.0.1:<port>`, for TRL_S3_ENDPOINT. */
  endpoint: string;
  /** Any keys work with moto; these are what the tests pass as AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY. */
  credentials: { accessKeyId: string; secretAccessKey: string };
  close(): Promise<void>;
}

const stop = (child: ChildProcess) => stopChildProcess(child, { graceMs: 5000 });

/** Starts a fresh moto server on a free 127.0.0.1 port and waits until it answers S3 requests. */
export async function startS3TestServer(executable: string): Promise<S3TestServer> {
  const port = await freeLoopbackPort();
  const child = spawn(executable, ['-H', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (bytes: Buffer) => {
    stderr = (stderr + bytes.toString('utf8')).slice(-2000);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = performance.now() + readinessTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`moto_server exited with code ${child.exitCode}: ${stderr.trim()}`);
    // An unsigned ListBuckets: any HTTP answer means the S3 front is up.
    const answered = await fetch(endpoint, { signal: AbortSignal.timeout(1000) }).then(
      () => true,
      () => false,
    );
    if (answered) break;
    if (performance.now() > deadline) {
      await stop(child);
      throw new Error(`moto_server did not answer on ${endpoint} within ${readinessTimeoutMs} ms: ${stderr.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    endpoint,
    credentials: { accessKeyId: 'trl-test', secretAccessKey: 'trl-test-secret' },
    close: () => stop(child),
  };
}
