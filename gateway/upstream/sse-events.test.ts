// Server-sent events from a byte stream: events split anywhere (inside a line, inside a character),
// comments and CRLF, an event cut by the stream's end dropped, and a line that never ends refused
// at the bound (each chunk's new text is searched once: the reader is linear in the bytes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSseEvents, SseEventTooLargeError, type SseEvent } from './sse-events.ts';

async function* pieces(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function read(text: string, size: number, max?: number): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of readSseEvents(pieces(text, size), max)) events.push(event);
  return events;
}

test('events come whole however the bytes are cut, multi-byte characters included', async () => {
  const text = ': a comment\r\ndata: {"a":"héllo"}\r\n\r\nevent: thread.run\ndata: one\ndata: two\n\ndata:[DONE]\n\n';
  const expected = [
    { event: undefined, data: '{"a":"héllo"}' },
    { event: 'thread.run', data: 'one\ntwo' },
    { event: undefined, data: '[DONE]' },
  ];
  for (const size of [1, 2, 3, 7, 64, 4096])
    assert.deepEqual(await read(text, size), expected, `pieces of ${size} bytes`);
});

test('an event the stream ended inside is dropped; blank lines alone make no event', async () => {
  assert.deepEqual(await read('\n\ndata: whole\n\ndata: cut off', 5), [{ event: undefined, data: 'whole' }]);
});

test('a line that never ends is refused at the bound; a long line in many pieces comes whole', async () => {
  const long = `data: ${'x'.repeat(2_000_000)}`;
  await assert.rejects(read(long, 1024, 1_000_000), SseEventTooLargeError);
  assert.deepEqual(await read(`data: ${'y'.repeat(500_000)}\n\n`, 256), [
    { event: undefined, data: 'y'.repeat(500_000) },
  ]);
});
