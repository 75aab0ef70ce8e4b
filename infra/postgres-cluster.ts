// A throwaway PostgreSQL cluster (Debian's `postgresql`) for the production topology: initdb in a
// folder of its own, owned by the `postgres` system user (PostgreSQL refuses to run as root),
// listening on 127.0.0.1 only at a free port, its socket in that folder. Trust authentication is
// enough on loopback for a test; production points TRL's Temporal at its own database instead.
import { chown, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { ensureDebianPackages } from './debian-packages.ts';
import { runCommand } from '../common/run-command.ts';
import { freeLoopbackPort } from '../common/free-loopback-port.ts';

export interface PostgresCluster {
  host: '127.0.0.1';
  port: number;
  user: string;
  /** The server's log, for errors. */
  logFile: string;
  stop(): Promise<void>;
}

async function postgresBinDir(): Promise<string> {
  const versions = (await readdir('/usr/lib/postgresql'))
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0)
    throw new Error("no PostgreSQL server under /usr/lib/postgresql after installing Debian's postgresql");
  return path.join('/usr/lib/postgresql', versions[0]!, 'bin');
}

/** Installs the package if needed, creates a cluster in `dir` (its parents must be traversable by the `postgres` user)
 * and starts it. */
export async function startPostgresCluster(options: { dir: string; user?: string }): Promise<PostgresCluster> {
  await ensureDebianPackages(['postgresql']);
  const bin = await postgresBinDir();
  const user = options.user ?? 'temporal';
  const dataDir = path.join(options.dir, 'data');
  const logFile = path.join(options.dir, 'postgres.log');
  await mkdir(options.dir, { recursive: true });
  const { uid, gid } = await systemUser('postgres');
  await chown(options.dir, uid, gid);
  const asPostgres = (command: string, args: string[]) =>
    runCommand('runuser', ['-u', 'postgres', '--', path.join(bin, command), ...args]);
  await asPostgres('initdb', ['-D', dataDir, '-A', 'trust', '-U', user, '--no-sync']);
  const port = await freeLoopbackPort();
  await asPostgres('pg_ctl', [
    '-D',
    dataDir,
    '-l',
    logFile,
    '-w',
    '-t',
    '60',
    '-o',
    `-p ${port} -k ${options.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
    'start',
  ]);
  return {
    host: '127.0.0.1',
    port,
    user,
    logFile,
    async stop() {
      await asPostgres('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
    },
  };
}

async function systemUser(name: string): Promise<{ uid: number; gid: number }> {
  const result = await runCommand('id', ['-u', name]);
  const group = await runCommand('id', ['-g', name]);
  return { uid: Number(result.stdout.trim()), gid: Number(group.stdout.trim()) };
}
