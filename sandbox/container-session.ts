// One sandbox container's life: create, exec under a monotonic deadline, copy files in and out, remove.
// The narrow interface (exec / upload / download / remove) is what agents and verifiers see.
import type Docker from 'dockerode';
import { containerLabels } from './container-labels.ts';
import { BoundedBuffer } from './bounded-buffer.ts';
import { containerLogConfig, limitsHostConfig, storageOptSupported } from './container-limits.ts';
import { readTarEntries, type ExtractedEntry } from './tar-archive.ts';
import { ownershipLabels, type WorkerIdentity } from './worker-identity.ts';
import { sandboxDnsHostConfig } from './sandbox-dns.ts';
import { removeNowOrLater } from './deferred-removal.ts';

export interface ContainerSpec {
  image: string;
  /** collector: pytest's test collection (verifiers/collect-tests.ts). */
  role: 'agent' | 'verifier' | 'collector';
  scenario: string;
  workflowId: string;
  cpus: number;
  memoryMb: number;
  owner: WorkerIdentity;
  /** 'none' until a later stage wires the per-run internal network. */
  networkMode?: string;
  /** Caps the writable layer where the storage driver allows it (see container-limits.ts). */
  storageBytes?: number;
  /** The task's [environment] env, as NAME=value. */
  env?: string[];
}

export interface ExecRequest {
  command: string[];
  user?: string;
  workdir?: string;
  env?: string[];
  /** Absolute deadline on performance.now()'s clock. */
  deadlineMs: number;
  maxOutputBytes?: number;
  /** Called every few seconds while the command runs (activity heartbeats). */
  onTick?: () => void;
  tickIntervalMs?: number;
  /** Aborts the command early (activity cancellation). */
  signal?: AbortSignal;
}

export interface ExecResult {
  exitCode: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  outputBytes: number;
  wallMs: number;
}

const defaultPidsLimit = 512;

export class ContainerSession {
  private constructor(
    private readonly docker: Docker,
    readonly container: Docker.Container,
    readonly spec: ContainerSpec,
  ) {}

  static async start(docker: Docker, spec: ContainerSpec): Promise<ContainerSession> {
    const storageCap =
      spec.storageBytes !== undefined && (await storageOptSupported(docker, spec.image))
        ? { StorageOpt: { size: `${spec.storageBytes}` } }
        : {};
    const container = await docker.createContainer({
      Image: spec.image,
      Cmd: ['sleep', 'infinity'],
      User: 'root',
      ...(spec.env?.length ? { Env: spec.env } : {}),
      Labels: {
        ...ownershipLabels(spec.owner),
        [containerLabels.role]: spec.role,
        [containerLabels.scenario]: spec.scenario,
        [containerLabels.workflowId]: spec.workflowId,
      },
      // Network mode none, not NetworkDisabled: the same isolation (a loopback only), and Docker still writes
      // /etc/hosts, so `localhost` resolves (a task's own server on localhost:8080; without it the name fell
      // through to the sandbox's empty resolver).
      HostConfig: {
        NetworkMode: spec.networkMode ?? 'none',
        // No name leaves the sandbox through Docker's embedded resolver (sandbox-dns.ts).
        ...((spec.networkMode ?? 'none') === 'none' ? {} : sandboxDnsHostConfig),
        ...limitsHostConfig({ cpus: spec.cpus, memoryMb: spec.memoryMb, pidsLimit: defaultPidsLimit }),
        SecurityOpt: ['no-new-privileges'],
        CapDrop: ['NET_RAW', 'SYS_ADMIN', 'SYS_PTRACE', 'MKNOD', 'AUDIT_WRITE'],
        LogConfig: containerLogConfig,
        ...storageCap,
      },
    });
    const session = new ContainerSession(docker, container, spec);
    try {
      await container.start();
    } catch (error) {
      await session.remove();
      throw error;
    }
    return session;
  }

  get id(): string {
    return this.container.id;
  }

  async exec(request: ExecRequest): Promise<ExecResult> {
    const started = performance.now();
    const exec = await this.container.exec({
      Cmd: request.command,
      User: request.user ?? 'root',
      WorkingDir: request.workdir,
      Env: request.env,
      AttachStdout: true,
      AttachStderr: true,
    });
    const stream = await exec.start({ hijack: true, stdin: false });
    const limit = request.maxOutputBytes ?? 256 * 1024;
    const stdout = new BoundedBuffer(limit);
    const stderr = new BoundedBuffer(limit);
    this.docker.modem.demuxStream(stream, stdout, stderr);

    const finished = new Promise<void>((resolve) => {
      stream.on('end', resolve);
      stream.on('close', resolve);
      stream.on('error', () => resolve());
    });
    let timedOut = false;
    let aborted = false;
    const remaining = Math.max(0, request.deadlineMs - performance.now());
    let ticker: NodeJS.Timeout | undefined;
    let deadlineTimer: NodeJS.Timeout | undefined;
    const stopped = new Promise<'deadline' | 'abort'>((resolve) => {
      deadlineTimer = setTimeout(() => resolve('deadline'), remaining);
      request.signal?.addEventListener('abort', () => resolve('abort'), { once: true });
    });
    if (request.onTick) ticker = setInterval(request.onTick, request.tickIntervalMs ?? 5000);
    try {
      const winner = await Promise.race([finished.then(() => 'finished' as const), stopped]);
      if (winner !== 'finished') {
        timedOut = winner === 'deadline';
        aborted = winner === 'abort';
        // Killing the container is the only sure way to stop every process the command started;
        // files remain readable from the stopped container.
        await this.container.kill().catch(() => undefined);
        stream.destroy();
      }
    } finally {
      clearTimeout(deadlineTimer);
      if (ticker) clearInterval(ticker);
    }
    let exitCode: number | null = null;
    if (!timedOut && !aborted) {
      const inspected = await exec.inspect();
      exitCode = inspected.ExitCode ?? null;
    }
    return {
      exitCode,
      timedOut,
      stdout: stdout.text(),
      stderr: stderr.text(),
      outputBytes: stdout.totalBytes + stderr.totalBytes,
      wallMs: Math.round(performance.now() - started),
    };
  }

  /** Extracts a tar archive into the container at destination (a directory that must exist). */
  async upload(archive: Buffer, destination: string): Promise<void> {
    await this.container.putArchive(archive, { path: destination });
  }

  /** Reads a path (file or directory) out of the container; undefined when it does not exist. */
  async download(containerPath: string, maxBytes: number, maxEntries?: number): Promise<ExtractedEntry[] | undefined> {
    let stream: NodeJS.ReadableStream;
    try {
      stream = await this.container.getArchive({ path: containerPath });
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404) return undefined;
      throw error;
    }
    return readTarEntries(stream, maxBytes, maxEntries);
  }

  /** Removes the container; while the engine is away, later (deferred-removal.ts). */
  async remove(): Promise<void> {
    await removeNowOrLater(`container ${this.container.id.slice(0, 12)}`, async () => {
      try {
        await this.container.remove({ force: true, v: true });
      } catch (error) {
        const status = (error as { statusCode?: number }).statusCode;
        if (status !== 404 && status !== 409) throw error;
      }
    });
  }
}
