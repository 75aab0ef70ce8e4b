// Splits a byte stream into lines, refusing lines longer than a bound (a hostile runner could
// otherwise make the host buffer without end). Linear in the input: each byte is scanned once,
// partial lines are kept as buffers (never re-concatenated per chunk), and a line is decoded only
// when complete, so a multi-byte character split across chunks stays whole. An overlong line
// reports one overflow and is skipped up to its newline.
import { Writable } from 'node:stream';

export class LineSplitter extends Writable {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOverflow: () => void,
  ) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    let start = 0;
    let newline: number;
    while ((newline = chunk.indexOf(0x0a, start)) >= 0) {
      const piece = chunk.subarray(start, newline);
      start = newline + 1;
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      if (this.pendingBytes + piece.length > this.maxLineBytes) {
        this.reset();
        this.onOverflow();
        continue;
      }
      const line = (this.pending.length ? Buffer.concat([...this.pending, piece]) : piece).toString('utf8');
      this.reset();
      if (line.trim()) this.onLine(line);
    }
    if (start < chunk.length && !this.skipping) {
      const rest = chunk.subarray(start);
      if (this.pendingBytes + rest.length > this.maxLineBytes) {
        this.reset();
        this.skipping = true;
        this.onOverflow();
      } else {
        this.pending.push(Buffer.from(rest));
        this.pendingBytes += rest.length;
      }
    }
    callback();
  }

  private reset(): void {
    this.pending = [];
    this.pendingBytes = 0;
  }
}
