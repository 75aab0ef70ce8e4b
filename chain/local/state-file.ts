// A JSON state file shared by processes on one machine (the worker, `trl submit`): every change
// is a read-modify-write under an exclusive lock file, written to a temporary file and renamed
// into place so a crash never leaves half a file.
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ZodError } from 'zod';

const staleLockMs = 30_000;
const lockWaitMs = 10_000;

async function acquireLock(lockFile: string): Promise<() => Promise<void>> {
  const deadline = Date.now() + lockWaitMs;
  for (;;) {
    try {
      const handle = await open(lockFile, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A holder that died leaves its lock behind; past the stale age it is taken over.
      const age = await stat(lockFile).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (age > staleLockMs) await rm(lockFile, { force: true });
      else if (Date.now() > deadline) throw new Error(`${lockFile} is held by another process for more than ${lockWaitMs / 1000} s; remove it if no trl process is running`);
      else await sleep(20);
    }
  }
}

function describeParseError(error: unknown): string {
  if (error instanceof ZodError) return error.issues.slice(0, 3).map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
  return (error as Error).message;
}

export class StateFile<State> {
  constructor(
    readonly file: string,
    private readonly parse: (value: unknown) => State,
    private readonly initial: () => State,
  ) {}

  async read(): Promise<State> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return this.initial();
      throw error;
    }
    try {
      return this.parse(JSON.parse(text));
    } catch (error) {
      throw new Error(`${this.file} is not a valid state file (${describeParseError(error)}); move it aside to start afresh`, { cause: error });
    }
  }

  /** Applies `change` to the current state under the lock and stores the result. */
  async update<Result>(change: (state: State) => Result | Promise<Result>): Promise<Result> {
    await mkdir(path.dirname(this.file), { recursive: true });
    const release = await acquireLock(`${this.file}.lock`);
    try {
      const state = await this.read();
      const result = await change(state);
      const temporary = `${this.file}.${process.pid}.tmp`;
      await writeFile(temporary, JSON.stringify(state, null, 2) + '\n');
      await rename(temporary, this.file);
      return result;
    } finally {
      await release();
    }
  }
}
