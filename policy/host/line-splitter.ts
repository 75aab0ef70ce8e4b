// Splits a byte stream into lines, refusing lines longer than a bound (a hostile runner could
// otherwise make the host buffer without end).
import { Writable } from 'node:stream';

export class LineSplitter extends Writable {
  private pending = '';

  constructor(private readonly maxLineBytes: number, private readonly onLine: (line: string) => void, private readonly onOverflow: () => void) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.pending += chunk.toString('utf8');
    let newline: number;
    while ((newline = this.pending.indexOf('\n')) >= 0) {
      const line = this.pending.slice(0, newline);
      this.pending = this.pending.slice(newline + 1);
      if (line.trim()) this.onLine(line);
    }
    if (this.pending.length > this.maxLineBytes) {
      this.pending = '';
      this.onOverflow();
    }
    callback();
  }
}
