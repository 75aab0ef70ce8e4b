// Hostile archives: bounded by bytes and by entries, and an overflow never escapes as an uncaught
// stream error (an uncaught TarTooLargeError used to end the worker process).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough, Readable } from 'node:stream';
import { packFiles, readTarEntries, TarTooLargeError } from './tar-archive.ts';

test('an archive over the byte bound, fed in small chunks, rejects once and the process survives', async () => {
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown): void => void uncaught.push(error);
  process.on('uncaughtException', onUncaught);
  try {
    const archive = await packFiles(
      [
        { name: 'a', content: Buffer.alloc(100_000) },
        { name: 'b', content: Buffer.alloc(100_000) },
      ],
      undefined,
      { directoryEntries: false },
    );
    const source = new PassThrough();
    const reading = readTarEntries(source, 1000);
    for (let i = 0; i < archive.length; i += 512) source.write(archive.subarray(i, i + 512));
    source.end();
    await assert.rejects(reading, (error: unknown) => error instanceof TarTooLargeError && error.bound === 'bytes');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(uncaught, []);
    assert.ok(source.destroyed, 'the source stream is destroyed, not left paused');
  } finally {
    process.off('uncaughtException', onUncaught);
  }
});

test('many empty files are bounded: by entries, and by their headers against the byte bound', async () => {
  const files = Array.from({ length: 3000 }, (_, i) => ({ name: `f${i}`, content: Buffer.alloc(0) }));
  const archive = await packFiles(files, undefined, { directoryEntries: false });
  await assert.rejects(
    readTarEntries(Readable.from(archive), 64 << 20, 1000),
    (error: unknown) => error instanceof TarTooLargeError && error.bound === 'entries',
  );
  // 3000 headers are 1.5 MB of archive although the content is 0 bytes.
  await assert.rejects(
    readTarEntries(Readable.from(archive), 1 << 20, 10_000),
    (error: unknown) => error instanceof TarTooLargeError && error.bound === 'bytes',
  );
  assert.equal((await readTarEntries(Readable.from(archive), 2 << 20, 10_000)).length, 3000);
});

test('a source stream error rejects instead of throwing', async () => {
  const source = new PassThrough();
  const reading = readTarEntries(source, 1 << 20);
  source.destroy(new Error('connection reset'));
  await assert.rejects(reading, /connection reset/);
});
