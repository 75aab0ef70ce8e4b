import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineSplitter } from './line-splitter.ts';

function split(chunks: Buffer[], maxLineBytes: number): { lines: string[]; overflows: number } {
  const lines: string[] = [];
  let overflows = 0;
  const splitter = new LineSplitter(
    maxLineBytes,
    (line) => lines.push(line),
    () => overflows++,
  );
  for (const chunk of chunks) splitter._write(chunk, 'utf8', () => undefined);
  return { lines, overflows };
}

test('lines split across chunks, multi-byte characters kept whole', () => {
  const bytes = Buffer.from('{"a":"é€"}\n\n{"b":1}\n', 'utf8');
  const chunks = [...bytes].map((byte) => Buffer.from([byte]));
  assert.deepEqual(split(chunks, 100).lines, ['{"a":"é€"}', '{"b":1}']);
});

test('an overlong line is reported once and skipped to its newline; the next line still arrives', () => {
  const { lines, overflows } = split(
    [Buffer.from('x'.repeat(50)), Buffer.from('y'.repeat(50)), Buffer.from('zz\nok\n')],
    60,
  );
  assert.deepEqual(lines, ['ok']);
  assert.equal(overflows, 1);
});

/**
 * Runs `work` counting the bytes it copies (Buffer.from, Buffer.concat): the step count of the
 * splitter's buffering. Past `limitBytes` it throws at once, so a quadratic splitter fails fast.
 */
function copiedBytesWhile(work: () => void, limitBytes: number): number {
  const { concat, from } = Buffer;
  let copied = 0;
  const count = (out: Buffer): Buffer => {
    copied += out.length;
    if (copied > limitBytes) throw new Error(`copied more than ${limitBytes} bytes: not linear`);
    return out;
  };
  Buffer.concat = ((list: readonly Uint8Array[], totalLength?: number) =>
    count(concat.call(Buffer, list, totalLength))) as typeof Buffer.concat;
  Buffer.from = ((...args: unknown[]) =>
    count((from as (...a: unknown[]) => Buffer).apply(Buffer, args))) as typeof Buffer.from;
  try {
    work();
  } finally {
    Buffer.concat = concat;
    Buffer.from = from;
  }
  return copied;
}

test('hostile shapes are linear: each byte copied at most twice, a long line in 1-byte chunks and many lines in one chunk (the time is in bench/linear-work.ts)', () => {
  // 1 MiB without a newline, one byte per write (the old splitter rescanned the whole line each write).
  const longLine = Buffer.alloc(1 << 20, 0x61);
  const oneByte: Buffer[] = [];
  for (let i = 0; i < longLine.length; i++) oneByte.push(longLine.subarray(i, i + 1));
  oneByte.push(Buffer.from('\n'));
  let long: ReturnType<typeof split> | undefined;
  copiedBytesWhile(
    () => {
      long = split(oneByte, 4 << 20);
    },
    2 * (longLine.length + 1),
  );
  assert.equal(long!.lines.length, 1);
  assert.equal(long!.lines[0]!.length, 1 << 20);
  // 8 MiB of short lines in one chunk.
  const many = Buffer.from('{}\n'.repeat(8 << 18));
  let short: ReturnType<typeof split> | undefined;
  copiedBytesWhile(() => {
    short = split([many], 1 << 20);
  }, 2 * many.length);
  assert.equal(short!.lines.length, 8 << 18);
});
