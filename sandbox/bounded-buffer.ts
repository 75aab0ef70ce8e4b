// Keeps the head and tail of a stream that may be flooded by hostile output, and counts the rest.
import { Writable } from 'node:stream';

export class BoundedBuffer extends Writable {
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);
  totalBytes = 0;

  constructor(private readonly limitBytes: number) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.totalBytes += chunk.length;
    const half = Math.floor(this.limitBytes / 2);
    if (this.head.length < half) {
      const take = Math.min(half - this.head.length, chunk.length);
      this.head = Buffer.concat([this.head, chunk.subarray(0, take)]);
      chunk = chunk.subarray(take);
    }
    if (chunk.length > 0) this.tail = Buffer.concat([this.tail, chunk]).subarray(-half);
    callback();
  }

  get truncated(): boolean {
    return this.totalBytes > this.head.length + this.tail.length;
  }

  text(): string {
    if (!this.truncated) return Buffer.concat([this.head, this.tail]).toString('utf8');
    const skipped = this.totalBytes - this.head.length - this.tail.length;
    return `${this.head.toString('utf8')}\n[... ${skipped} bytes omitted ...]\n${this.tail.toString('utf8')}`;
  }
}
