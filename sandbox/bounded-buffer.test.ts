import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedBuffer } from './bounded-buffer.ts';

function feed(buffer: BoundedBuffer, chunks: string[]): Promise<void> {
  for (const chunk of chunks) buffer.write(Buffer.from(chunk));
  return new Promise((resolve) => buffer.end(resolve));
}

test('short output is kept whole', async () => {
  const buffer = new BoundedBuffer(100);
  await feed(buffer, ['hello ', 'world']);
  assert.equal(buffer.text(), 'hello world');
  assert.equal(buffer.truncated, false);
});

test('a flood keeps its head and tail within the bound and says how much was dropped', async () => {
  const buffer = new BoundedBuffer(20);
  await feed(buffer, ['HEAD-', 'x'.repeat(10_000), '-TAIL']);
  assert.equal(buffer.totalBytes, 10_010);
  assert.ok(buffer.truncated);
  assert.match(buffer.text(), /^HEAD-x{5}\n\[\.\.\. 9990 bytes omitted \.\.\.\]\nx{5}-TAIL$/);
});
