// A JSON-lines record appended as a run goes (call log, turn log). A write that fails (a full disk,
// a vanished folder) must neither crash the worker — a stream error with no listener is an uncaught
// exception — nor pass unnoticed: the first error is kept, later lines are dropped, and close()
// rejects with it, so the attempt fails as the infrastructure's instead of leaving a short record.
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import path from 'node:path';

export class AppendLog {
  private stream: WriteStream | undefined;
  private failure: Error | undefined;

  constructor(readonly file: string) {
    mkdirSync(path.dirname(file), { recursive: true });
    const stream = createWriteStream(file, { flags: 'a' });
    stream.on('error', (error) => {
      this.failure ??= new Error(`could not write ${file}: ${error.message}`);
    });
    this.stream = stream;
  }

  /** The first write error, if any. */
  get error(): Error | undefined {
    return this.failure;
  }

  write(line: string): void {
    if (this.failure || !this.stream || this.stream.destroyed) return;
    this.stream.write(line);
  }

  /** Flushes and closes; rejects with the first write error (the record is incomplete). */
  async close(): Promise<void> {
    const stream = this.stream;
    this.stream = undefined;
    if (stream && !stream.destroyed) {
      await new Promise<void>((resolve) => {
        stream.once('close', resolve);
        stream.end();
      });
    }
    if (this.failure) throw this.failure;
  }
}
