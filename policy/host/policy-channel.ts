// The host's end of the channel to the policy runner: a unix socket in a directory of its own,
// bind-mounted read-only into the policy sandbox, which has no network at all. The runner connects
// once (policy/runtime/runner.mjs); the first connection is the runner's and the server then stops
// listening, so nothing else — the policy opening a second one, another local process — gets in.
// A socket and not the container's attached stdin / stdout: that path crosses the Docker daemon both
// ways, about 0.2 ms a crossing and four crossings per model call (bench/policy-chain-latency.ts).
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { LineSplitter } from './line-splitter.ts';
import { processAlive } from '../../common/process-alive.ts';

/** Where the channel's directory is mounted inside the policy sandbox. */
export const policyChannelDirInSandbox = '/run/trl-channel';

/** A channel directory's name starts with this and the pid of the process that listens in it. */
const channelDirPrefix = 'trl-policy-';
const channelDirPattern = /^trl-policy-(\d+)-/;

/**
 * Removes channel directories a dead process left behind (a worker killed with SIGKILL never
 * closes its channels). The pid in the name says whose each one is; a live process's are kept, so
 * several workers on one host can each sweep at start. Returns how many went.
 */
export async function removeOrphanChannelDirs(parent = os.tmpdir()): Promise<number> {
  let removed = 0;
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    const pid = Number(channelDirPattern.exec(name)?.[1]);
    if (!pid || pid === process.pid || processAlive(pid)) continue;
    await rm(path.join(parent, name), { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}

export interface PolicyChannelEvents {
  onLine(line: string): void;
  /** A line over the protocol's bound (it is skipped). */
  onOverflow(): void;
  /** The connection failed or closed while the host had not closed it. */
  onBroken(reason: string): void;
}

export class PolicyChannel {
  private socket: net.Socket | undefined;
  /** What the host said before the runner connected: sent on connection, in order. */
  private queued: string[] = [];
  private closed = false;

  private constructor(
    private readonly server: net.Server,
    /** Host directory to bind-mount at policyChannelDirInSandbox. */
    readonly hostDir: string,
    /** The socket's path on the host (a runner outside a container, in tests, connects here). */
    readonly hostPath: string,
    /** The socket's path as the runner in the sandbox sees it (its TRL_POLICY_CHANNEL). */
    readonly pathInSandbox: string,
    private readonly maxLineBytes: number,
    private readonly events: PolicyChannelEvents,
  ) {}

  /**
   * Listens on a fresh socket. Short paths on purpose (a unix socket path has 107 bytes at most),
   * hence the system's temporary directory and not the attempt's folder. The directory can be
   * entered but not listed, and the socket's name is random.
   */
  static async open(maxLineBytes: number, events: PolicyChannelEvents): Promise<PolicyChannel> {
    const hostDir = await mkdtemp(path.join(os.tmpdir(), `${channelDirPrefix}${process.pid}-`));
    const name = `${randomBytes(12).toString('hex')}.sock`;
    const socketPath = path.join(hostDir, name);
    const server = net.createServer();
    const channel = new PolicyChannel(
      server,
      hostDir,
      socketPath,
      `${policyChannelDirInSandbox}/${name}`,
      maxLineBytes,
      events,
    );
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(socketPath, () => {
          server.off('error', reject);
          resolve();
        });
      });
      // The runner is an unprivileged user: it must enter the directory and write to the socket.
      await chmod(hostDir, 0o711);
      await chmod(socketPath, 0o666);
    } catch (error) {
      await channel.close();
      throw error;
    }
    server.on('error', () => undefined); // after listening, errors concern connections, handled below
    server.once('connection', (socket) => channel.accept(socket));
    return channel;
  }

  private accept(socket: net.Socket): void {
    // One connection for the channel's life: later ones are refused by a closed server.
    this.server.close();
    if (this.closed) return void socket.destroy();
    this.socket = socket;
    socket.on('error', (error) => this.broken(`the policy channel failed (${error.message})`));
    socket.on('close', () => this.broken('the policy closed its channel'));
    socket.pipe(
      new LineSplitter(
        this.maxLineBytes,
        (line) => this.events.onLine(line),
        () => this.events.onOverflow(),
      ),
    );
    for (const line of this.queued) socket.write(line);
    this.queued = [];
  }

  private broken(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.events.onBroken(reason);
  }

  get connected(): boolean {
    return this.socket !== undefined;
  }

  /** Sends one protocol line (the newline is added); before the runner connects, it waits in order. */
  send(line: string): void {
    if (this.closed) return;
    if (this.socket) this.socket.write(`${line}\n`);
    else this.queued.push(`${line}\n`);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.queued = [];
    this.socket?.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await rm(this.hostDir, { recursive: true, force: true });
  }
}
