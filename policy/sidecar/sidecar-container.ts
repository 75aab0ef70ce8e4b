// The policy sidecar's container: the sidecar image, the pack's files read-only at /policy (its
// only volume), on the attempt's policy network; uid 65534, read-only root, a small tmpfs /tmp,
// 1 CPU, 1 GB, a pids limit, no capabilities, and a bounded json-file log (its output is kept).
import type Docker from 'dockerode';
import { containerLabels } from '../../sandbox/container-labels.ts';
import { ownershipLabels, type WorkerIdentity } from '../../sandbox/worker-identity.ts';
import { sandboxDnsHostConfig } from '../../sandbox/sandbox-dns.ts';
import { policyJsonRunnerPathInImage } from '../../infra/policy-sidecar-image.ts';
import { exitWatchSince, watchContainerExit, type ContainerExit } from '../../sandbox/container-exit.ts';
import { removeNowOrLater } from '../../sandbox/deferred-removal.ts';
import { limitsHostConfig, type SandboxLimits } from '../../sandbox/container-limits.ts';

export type SidecarKind = 'python' | 'data';

export const sidecarPolicyPort = 8800;
export const sidecarRole = 'policy-sidecar';
/** Memory of one sidecar unless its spec says otherwise. */
export const defaultSidecarMemoryMb = 1024;
const defaultSidecarLimits = { memoryMb: defaultSidecarMemoryMb, cpus: 1, pidsLimit: 128 };

const maxLogBytes = 256 * 1024;

export interface SidecarContainerSpec {
  image: string;
  kind: SidecarKind;
  /** Host folder with the pack's files, mounted read-only at /policy. */
  filesDir: string;
  network: string;
  upstreamUrl: string;
  episodeToken: string;
  defaultModel: string;
  owner: WorkerIdentity;
  workflowId: string;
  scenario: string;
  limits?: SandboxLimits;
}

export function sidecarCommand(kind: SidecarKind): string[] {
  return kind === 'python' ? ['python3', '/policy/policy.py'] : ['python3', policyJsonRunnerPathInImage];
}

export class SidecarContainer {
  /** Resolves when the container stops (never rejects). */
  readonly exited: Promise<ContainerExit>;
  exitInfo: ContainerExit | undefined;

  private constructor(
    docker: Docker,
    readonly container: Docker.Container,
    readonly address: string,
    startedSec: number,
  ) {
    this.exited = watchContainerExit(docker, container, startedSec);
    void this.exited.then((exit) => {
      this.exitInfo = exit;
    });
  }

  get baseUrl(): string {
    return `http://${this.address}:${sidecarPolicyPort}`;
  }

  static async start(docker: Docker, spec: SidecarContainerSpec): Promise<SidecarContainer> {
    const startedSec = exitWatchSince();
    const container = await docker.createContainer({
      Image: spec.image,
      Cmd: sidecarCommand(spec.kind),
      User: '65534:65534',
      WorkingDir: '/policy',
      Env: [
        `POLICY_PORT=${sidecarPolicyPort}`,
        `UPSTREAM_URL=${spec.upstreamUrl}`,
        `EPISODE_TOKEN=${spec.episodeToken}`,
        'POLICY_DIR=/policy',
        `DEFAULT_MODEL=${spec.defaultModel}`,
        'HOME=/tmp',
      ],
      Labels: {
        ...ownershipLabels(spec.owner),
        [containerLabels.role]: sidecarRole,
        [containerLabels.scenario]: spec.scenario,
        [containerLabels.workflowId]: spec.workflowId,
      },
      HostConfig: {
        NetworkMode: spec.network,
        // No name leaves the sandbox through Docker's embedded resolver (sandbox-dns.ts).
        ...sandboxDnsHostConfig,
        ReadonlyRootfs: true,
        Tmpfs: { '/tmp': 'rw,noexec,nosuid,nodev,size=64m' },
        Binds: [`${spec.filesDir}:/policy:ro`],
        ...limitsHostConfig(defaultSidecarLimits, spec.limits),
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges'],
        // Bounded output: a policy printing without end keeps at most 1 MB on disk.
        LogConfig: { Type: 'json-file', Config: { 'max-size': '1m', 'max-file': '1' } },
      },
    });
    try {
      await container.start();
      const info = await container.inspect();
      const address = info.NetworkSettings.Networks[spec.network]?.IPAddress;
      // A policy that dies at once (an error at import) has already left its network: it is kept
      // without an address so the health wait sees the exit and reports it with the output.
      if (!address && info.State?.Running) throw new Error(`the policy sidecar has no address on ${spec.network}`);
      return new SidecarContainer(docker, container, address ?? '', startedSec);
    } catch (error) {
      await container.remove({ force: true }).catch(() => undefined);
      throw error;
    }
  }

  async running(): Promise<boolean> {
    const info = await this.container.inspect().catch(() => undefined);
    return info?.State?.Running === true;
  }

  /** The tail of the container's output (stdout and stderr interleaved), at most 256 KB. */
  async logs(): Promise<string> {
    const raw = (await this.container
      .logs({ stdout: true, stderr: true, follow: false, tail: 4000 })
      .catch(() => Buffer.alloc(0))) as unknown as Buffer;
    const text = demuxDockerLog(Buffer.isBuffer(raw) ? raw : Buffer.from(String(raw)));
    return text.length > maxLogBytes
      ? `[… ${text.length - maxLogBytes} earlier characters dropped]\n${text.slice(-maxLogBytes)}`
      : text;
  }

  async remove(): Promise<void> {
    await removeNowOrLater(`container ${this.container.id.slice(0, 12)}`, () =>
      this.container.remove({ force: true }).catch((error: { statusCode?: number }) => {
        if (error.statusCode !== 404 && error.statusCode !== 409) throw error;
      }),
    );
  }
}

/** Docker's multiplexed log stream (8-byte frame headers) as text; plain text passes through. */
export function demuxDockerLog(raw: Buffer): string {
  const parts: Buffer[] = [];
  let offset = 0;
  while (offset + 8 <= raw.length) {
    const streamType = raw[offset]!;
    const size = raw.readUInt32BE(offset + 4);
    if (streamType > 2 || raw[offset + 1] !== 0 || offset + 8 + size > raw.length) return raw.toString('utf8');
    parts.push(raw.subarray(offset + 8, offset + 8 + size));
    offset += 8 + size;
  }
  return Buffer.concat(parts).toString('utf8');
}
