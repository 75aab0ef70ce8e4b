import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineSplitter } from './line-splitter.ts';

function split(chunks: Buffer[], maxLineBytes: number): { lines: string[]; overflows: number } {
  const lines: string[] = [];
  let overflows = 0;
  const splitter = new LineSplitter(maxLineBytes, (line) => lines.push(line), () => overflows++);
  for (const chunk of chunks) splitter._write(chunk, 'utf8', () => undefined);
  return { lines, overflows };
}

test('lines split across chunks, multi-byte characters kept whole', () => {
  const bytes = Buffer.from('{"a":"é€"}\n\n{"b":1}\n', 'utf8');
  const chunks = [...bytes].map((byte) => Buffer.from([byte]));
  assert.deepEqual(split(chunks, 100).lines, ['{"a":"é€"}', '{"b":1}']);
});

test('an overlong line is reported once and skipped to its newline; the next line still arrives', () => {
  const { lines, overflows } = split([Buffer.from('x'.repeat(50)), Buffer.from('y'.repeat(50)), Buffer.from('zz\nok\n')], 60);
  assert.deepEqual(lines, ['ok']);
  assert.equal(overflows, 1);
});

test('hostile shapes are linear: a long line in 1-byte chunks and many lines in one chunk', () => {
  const started = performance.now();
  // 1 MiB without a newline, one byte per write (the old splitter rescanned the whole line each write).
  const longLine = Buffer.alloc(1 << 20, 0x61);
  const oneByte: Buffer[] = [];
  for (let i = 0; i < longLine.length; i++) oneByte.push(longLine.subarray(i, i + 1));
  split(oneByte, 4 << 20);
  // 8 MiB of short lines in one chunk.
  split([Buffer.from('{}\n'.repeat(8 << 18))], 1 << 20);
  assert.ok(performance.now() - started < 5_000, `took ${Math.round(performance.now() - started)} ms`);
});
