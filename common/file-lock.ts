// A lock file for the few milliseconds a ledger write takes, so worker processes on one host can
// share a ledger directory: created with O_CREAT|O_EXCL ('wx'), holding host, pid and a token.
// A lock is stale when its holder on this host is dead, or when it is older than staleMs (a holder
// that hung or lives on another host). Breaking a stale lock re-reads it first and removes it only
// if it is still the one judged stale; two breakers racing within that read-unlink window could
// both proceed — acceptable for a lock held for milliseconds whose holder must first have crashed.
import { randomBytes } from 'node:crypto';
import { open, readFile, stat, unlink } from 'node:fs/promises';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { processAlive } from './process-alive.ts';

export interface FileLockOptions {
  /** A lock older than this is broken whoever holds it. */
  staleMs?: number;
  /** Give up (throw) after waiting this long. */
  timeoutMs?: number;
}

interface LockHolder {
  host: string;
  pid: number;
  token: string;
}

export class LockTimeoutError extends Error {
  constructor(
    readonly lockFile: string,
    readonly holder: string,
  ) {
    super(`could not take the lock ${lockFile} (held by ${holder || 'unknown'})`);
  }
}

async function readHolder(lockFile: string): Promise<{ text: string; holder?: LockHolder; ageMs: number } | undefined> {
  try {
    const [text, info] = await Promise.all([readFile(lockFile, 'utf8'), stat(lockFile)]);
    let holder: LockHolder | undefined;
    try {
      holder = JSON.parse(text) as LockHolder;
    } catch {
      holder = undefined; // a holder that died between creating and writing the file
    }
    return { text, holder, ageMs: Date.now() - info.mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function isStale(found: { holder?: LockHolder; ageMs: number }, staleMs: number): boolean {
  if (found.ageMs > staleMs) return true;
  const holder = found.holder;
  // An empty or unreadable lock gets the age rule only: its writer may be between open and write.
  if (!holder || holder.host !== os.hostname() || holder.pid === process.pid) return false;
  return !processAlive(holder.pid);
}

/** Runs fn while holding lockFile; the lock is removed afterwards whatever fn does. */
export async function withFileLock<T>(
  lockFile: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const staleMs = options.staleMs ?? 30_000;
  const deadline = performance.now() + (options.timeoutMs ?? 10_000);
  const self: LockHolder = { host: os.hostname(), pid: process.pid, token: randomBytes(8).toString('hex') };
  let waitMs = 2;
  for (;;) {
    try {
      const handle = await open(lockFile, 'wx');
      try {
        await handle.writeFile(JSON.stringify(self));
      } catch (error) {
        // Created but not written (a full disk): an empty lock would block everyone for staleMs.
        await handle.close().catch(() => undefined);
        await unlink(lockFile).catch(() => undefined);
        throw error;
      }
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const found = await readHolder(lockFile);
    if (found && isStale(found, staleMs)) {
      const again = await readHolder(lockFile);
      if (again?.text === found.text) await unlink(lockFile).catch(() => undefined);
      continue;
    }
    if (performance.now() > deadline) throw new LockTimeoutError(lockFile, found?.text ?? '');
    await sleep(waitMs + Math.random() * waitMs);
    waitMs = Math.min(waitMs * 2, 50);
  }
  try {
    return await fn();
  } finally {
    const current = await readHolder(lockFile).catch(() => undefined);
    if (current?.holder?.token === self.token) await unlink(lockFile).catch(() => undefined);
  }
}
