// One policy sidecar for one scenario attempt, started in order and torn down in reverse:
//   policy network (internal; its bridge reaches only the gateway port on the host, v4 and v6)
//   → the gateway's HTTP face on that bridge address only, with a per-episode token
//   → the pack's files (read-only at /policy) → the container → health (GET /v1/models, 60 s).
// A sidecar that exits before it is healthy, or never answers, is a start failure: recorded as
// the policy's fault (its output kept for policy.log), and the run does not start the agent.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type Docker from 'dockerode';
import { artifactNames } from '../../common/data-layout.ts';
import { serveGateway } from '../../gateway/gateway-server.ts';
import { createRunNetwork, type RunNetwork } from '../../sandbox/run-network.ts';
import type { WorkerIdentity } from '../../sandbox/worker-identity.ts';
import type { SandboxLimits } from '../../sandbox/container-limits.ts';
import { killedFromOutside, type ContainerExit } from '../../sandbox/container-exit.ts';
import type { BackendContext } from '../host/policy-run.ts';
import { writePolicyFiles } from './policy-files.ts';
import { SidecarBackend } from './sidecar-backend.ts';
import { SidecarContainer, type SidecarKind } from './sidecar-container.ts';

export interface SidecarOptions {
  docker: Docker;
  owner: WorkerIdentity;
  workflowId: string;
  scenario: string;
  image: string;
  kind: SidecarKind;
  /** The pack's files; all but SKILL.md go to /policy. */
  files: Record<string, string>;
  /** The model `auto` stands for (DEFAULT_MODEL). */
  defaultModel: string;
  healthTimeoutMs?: number;
  limits?: SandboxLimits;
  /** Cancellation: stops waiting for health and tears down. */
  signal?: AbortSignal;
}

export interface StartedSidecar {
  backend: SidecarBackend;
  network: RunNetwork;
  container?: SidecarContainer;
  gatewayUrl: string;
}

export const defaultSidecarHealthTimeoutMs = 60_000;

function healthy(baseUrl: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get(`${baseUrl}/v1/models`, { agent: false, timeout: 2000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
  });
}

function describeExit(exit: ContainerExit): string {
  if (exit.oomKilled) return 'the policy ran out of memory';
  return killedFromOutside(exit)
    ? 'the policy sidecar was killed from outside the sandbox (docker kill)'
    : `the policy exited with code ${exit.exitCode ?? 'unknown'}`;
}

/** Starts the sidecar and returns its backend (a start failure is recorded on it, not thrown). */
export async function startSidecar(options: SidecarOptions, context: BackendContext): Promise<StartedSidecar> {
  const { kind, files } = options;
  const entry = kind === 'python' ? 'policy.py' : 'policy.json';
  if (typeof files[entry] !== 'string') throw new Error(`a ${kind} pack needs ${entry}`);
  const backend = new SidecarBackend({
    requestTimeoutMs: context.requestTimeoutMs,
    deadlineMs: context.deadlineMs,
    maxAgentRequests: context.maxAgentRequests,
    turnLog: context.turnLog,
  });
  const cleanups: (() => Promise<unknown>)[] = [];
  const teardown = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  };
  try {
    const network = await createRunNetwork(options.docker, options.owner, options.workflowId, 'policy');
    cleanups.push(() => network.remove());
    const token = randomBytes(32).toString('hex');
    const server = await serveGateway(context.gateway, {
      host: network.hostAddress,
      token,
      requestIdOf: () => backend.currentRequestId(),
    });
    cleanups.push(() => server.close());
    await network.allowOnlyPort(Number(new URL(server.url).port));
    const filesDir = await writePolicyFiles(path.join(context.dir, artifactNames.policySidecarFilesDir), files);
    const container = await SidecarContainer.start(options.docker, {
      image: options.image,
      kind,
      filesDir,
      network: network.name,
      upstreamUrl: server.url,
      episodeToken: token,
      defaultModel: options.defaultModel,
      owner: options.owner,
      workflowId: options.workflowId,
      scenario: options.scenario,
      limits: options.limits,
    });
    cleanups.push(() => container.remove());
    backend.onStop(async () => {
      // A sidecar already gone when the run ends: whether it was killed from outside is settled
      // before the teardown's own kill could be mistaken for it.
      if (!(await container.running())) {
        const exit = await container.exited;
        backend.exitedBeforeStop(describeExit(exit), exit);
      }
      const output = await container.logs();
      await teardown();
      return output;
    });
    void container.exited.then((exit) => backend.exited(`${describeExit(exit)} while serving`, exit));
    await waitHealthy(container, backend, options.healthTimeoutMs ?? defaultSidecarHealthTimeoutMs, options.signal);
    return { backend, network, container, gatewayUrl: server.url };
  } catch (error) {
    await teardown();
    throw error;
  }
}

async function waitHealthy(
  container: SidecarContainer,
  backend: SidecarBackend,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    signal?.throwIfAborted();
    if (container.exitInfo) {
      const output = await container.logs();
      const tail = output.trim().split('\n').slice(-12).join('\n');
      return backend.failedToStart(
        `${describeExit(container.exitInfo)} before it answered GET /v1/models${tail ? `:\n${tail}` : ''}`,
      );
    }
    if (container.address && (await healthy(container.baseUrl))) return backend.ready(container.baseUrl);
    // Poll again soon, or as soon as the container exits.
    await Promise.race([sleep(200), container.exited]);
  }
  backend.failedToStart(`the policy did not answer GET /v1/models within ${Math.round(timeoutMs / 1000)} s`);
}
