// A JSON state file shared by processes on one machine (the worker, `trl submit`): every change
// is a read-modify-write under the lock file, written atomically.
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ZodError } from 'zod';
import { withFileLock } from '../../common/file-lock.ts';
import { writeFileAtomic } from '../../common/atomic-write.ts';

function describeParseError(error: unknown): string {
  if (error instanceof ZodError)
    return error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
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
      throw new Error(
        `${this.file} is not a valid state file (${describeParseError(error)}); move it aside to start afresh`,
        { cause: error },
      );
    }
  }

  /** Applies `change` to the current state under the lock and stores the result. */
  async update<Result>(change: (state: State) => Result | Promise<Result>): Promise<Result> {
    await mkdir(path.dirname(this.file), { recursive: true });
    return withFileLock(`${this.file}.lock`, async () => {
      const state = await this.read();
      const result = await change(state);
      await writeFileAtomic(this.file, JSON.stringify(state, null, 2) + '\n');
      return result;
    });
  }
}
