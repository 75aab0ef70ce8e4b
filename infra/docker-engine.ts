// Makes sure a Docker engine answers: use the running one, else install Debian's docker.io and start dockerd.
import { openSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import type Docker from 'dockerode';
import { dockerAnswers } from '../sandbox/docker-client.ts';
import { dockerdLogFile } from '../common/data-layout.ts';
import { say } from '../common/log.ts';
import { commandExists } from '../common/run-command.ts';
import { ensureDebianPackages } from './debian-packages.ts';

const readinessTimeoutMs = 60_000;

export async function ensureDockerEngine(docker: Docker): Promise<void> {
  if (await dockerAnswers(docker)) return;
  if (!(await commandExists('dockerd'))) {
    await ensureDebianPackages(['docker.io']);
  }
  say(`starting dockerd (log: ${dockerdLogFile})`);
  mkdirSync(path.dirname(dockerdLogFile), { recursive: true });
  const logFd = openSync(dockerdLogFile, 'a');
  // Every scenario holds two networks (the agent's and its policy's): dockerd's default pools give
  // about 30 in all, which 15 scenarios in flight on one engine exhaust. /24 networks from the same
  // private block Docker uses by default give 4,096 (ranges the host routes are skipped by Docker).
  const child = spawn('dockerd', ['--default-address-pool', 'base=172.16.0.0/12,size=24'], {
    detached: true,
    stdio: ['ignore', logFd, logFd],
  });
  child.unref();
  const deadline = performance.now() + readinessTimeoutMs;
  while (performance.now() < deadline) {
    if (await dockerAnswers(docker)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`dockerd did not answer within ${readinessTimeoutMs / 1000}s; see ${dockerdLogFile}`);
}
