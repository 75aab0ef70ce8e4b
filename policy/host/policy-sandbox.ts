// The policy's sandbox: a container of the policy sandbox image with no network at all, a read-only
// root, a small tmpfs, an unprivileged user, memory / pids / CPU limits, and only the bundle mounted.
// The host talks to the runner inside over a unix socket mounted into it (policy-channel.ts), one
// JSON line each way; the container's own stdout and stderr are kept, bounded, for the record.
// Its exit says who ended it (sandbox/container-exit.ts): a kill from outside is not the policy's.
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import type Docker from 'dockerode';
import { containerLabels } from '../../sandbox/container-labels.ts';
import { ownershipLabels, type WorkerIdentity } from '../../sandbox/worker-identity.ts';
import { BoundedBuffer } from '../../sandbox/bounded-buffer.ts';
import { policyRunnerPathInImage } from '../../infra/policy-sandbox-image.ts';
import { maxProtocolLineBytes, type HostMessage } from '../runtime/protocol.ts';
import { PolicyChannel, policyChannelDirInSandbox } from './policy-channel.ts';
import { containerLogConfig, limitsHostConfig, type SandboxLimits } from '../../sandbox/container-limits.ts';
import { removeNowOrLater } from '../../sandbox/deferred-removal.ts';
import {
  exitWatchSince,
  killedFromOutside,
  watchContainerExit,
  type ContainerExit,
} from '../../sandbox/container-exit.ts';

export interface PolicySandboxSpec {
  image: string;
  /** Host path of the bundled policy (an .mjs file); mounted read-only at /policy. */
  bundleFile: string;
  owner: WorkerIdentity;
  workflowId: string;
  scenario: string;
  limits?: SandboxLimits;
}

export interface SandboxExit extends ContainerExit {
  reason: string;
}

/** How long a broken channel or attach socket waits for the container's exit to say whether it was killed from outside.
 * */
const brokenExitGraceMs = 5_000;

function sandboxExitOf(exit: ContainerExit): SandboxExit {
  const reason = exit.oomKilled
    ? 'the policy ran out of memory'
    : killedFromOutside(exit)
      ? 'the policy sandbox was killed from outside the sandbox (docker kill)'
      : exit.exitCode === null
        ? 'the policy sandbox disappeared'
        : `the policy process exited with ${exit.exitCode}`;
  return { ...exit, reason };
}

export const bundlePathInSandbox = '/policy/policy.mjs';

/** Memory of one policy sandbox unless its spec says otherwise. */
export const defaultPolicySandboxMemoryMb = 512;
const defaultPolicySandboxLimits = { memoryMb: defaultPolicySandboxMemoryMb, cpus: 1, pidsLimit: 64 };

export class PolicySandbox {
  private exitHandlers: ((exit: SandboxExit) => void)[] = [];
  private exited: SandboxExit | undefined;
  /** The container's stdout and stderr (a crash's trace; nothing the protocol needs), bounded. */
  readonly output = new BoundedBuffer(64 * 1024);

  private constructor(
    readonly container: Docker.Container,
    private readonly channel: PolicyChannel,
  ) {}

  static async start(
    docker: Docker,
    spec: PolicySandboxSpec,
    onLine: (line: string) => void,
    onOverflow: () => void,
  ): Promise<PolicySandbox> {
    const memoryMb = spec.limits?.memoryMb ?? defaultPolicySandboxLimits.memoryMb;
    const sinceSec = exitWatchSince();
    let exited: Promise<ContainerExit> | undefined;
    let sandbox: PolicySandbox | undefined;
    // A socket or stream that breaks (the container killed mid-write: EPIPE, ECONNRESET) ends the
    // sandbox: as the container's exit says when that comes soon (a kill from outside is then told
    // apart), else as a crash.
    const broke = (reason: string) => {
      const broken: SandboxExit = { exitCode: null, oomKilled: false, killed: false, reason };
      void Promise.race([exited, sleep(brokenExitGraceMs, undefined, { ref: false })]).then((exit) =>
        sandbox?.markExited(exit ? sandboxExitOf(exit) : broken),
      );
    };
    const channel = await PolicyChannel.open(maxProtocolLineBytes, { onLine, onOverflow, onBroken: broke });
    let container: Docker.Container;
    try {
      container = await createPolicyContainer(docker, spec, memoryMb, channel);
    } catch (error) {
      await channel.close();
      throw error;
    }
    const created = new PolicySandbox(container, channel);
    sandbox = created;
    const output = created.output;
    try {
      const stream = await container.attach({ stream: true, stdin: false, stdout: true, stderr: true, hijack: true });
      stream.on('error', (error: Error) => broke(`the policy sandbox's output stream failed (${error.message})`));
      container.modem.demuxStream(stream, output, output);
      await container.start();
    } catch (error) {
      await created.stop();
      throw error;
    }
    exited = watchContainerExit(docker, container, sinceSec);
    void exited.then((exit) => created.markExited(sandboxExitOf(exit)));
    return created;
  }

  private markExited(exit: SandboxExit): void {
    if (this.exited) return;
    this.exited = exit;
    for (const handler of this.exitHandlers) handler(exit);
  }

  get exitInfo(): SandboxExit | undefined {
    return this.exited;
  }

  onExit(handler: (exit: SandboxExit) => void): void {
    if (this.exited) handler(this.exited);
    else this.exitHandlers.push(handler);
  }

  send(message: HostMessage): void {
    if (this.exited) return;
    this.channel.send(JSON.stringify(message));
  }

  async stop(): Promise<void> {
    this.markExited({ exitCode: null, oomKilled: false, killed: false, reason: 'stopped by the host' });
    await this.channel.close();
    await removeNowOrLater(`container ${this.container.id.slice(0, 12)}`, () =>
      this.container.remove({ force: true }).catch((error: { statusCode?: number }) => {
        if (error.statusCode !== 404 && error.statusCode !== 409) throw error;
      }),
    );
  }
}

function createPolicyContainer(
  docker: Docker,
  spec: PolicySandboxSpec,
  memoryMb: number,
  channel: PolicyChannel,
): Promise<Docker.Container> {
  return docker.createContainer({
    Image: spec.image,
    Cmd: ['node', `--max-old-space-size=${Math.floor(memoryMb * 0.6)}`, policyRunnerPathInImage],
    User: '65534:65534',
    WorkingDir: '/tmp',
    Env: ['NODE_ENV=production', `TRL_POLICY_CHANNEL=${channel.pathInSandbox}`],
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
    NetworkDisabled: true,
    Labels: {
      ...ownershipLabels(spec.owner),
      [containerLabels.role]: 'policy',
      [containerLabels.scenario]: spec.scenario,
      [containerLabels.workflowId]: spec.workflowId,
    },
    HostConfig: {
      NetworkMode: 'none',
      ReadonlyRootfs: true,
      Tmpfs: { '/tmp': 'rw,noexec,nosuid,size=16m' },
      Binds: [`${path.dirname(spec.bundleFile)}:/policy:ro`, `${channel.hostDir}:${policyChannelDirInSandbox}:ro`],
      ...limitsHostConfig(defaultPolicySandboxLimits, spec.limits),
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      // The policy's output is attached: its log is bounded like every container's.
      LogConfig: containerLogConfig,
    },
  });
}
