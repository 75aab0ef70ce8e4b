import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { packFiles, readTarEntries, TarTooLargeError } from './tar-archive.ts';

test('packed files read back with their names, modes and parent directories', async () => {
  const archive = await packFiles([{ name: 'app/out/a.txt', content: Buffer.from('A'), mode: 0o600 }]);
  const entries = await readTarEntries(Readable.from(archive), 4096);
  assert.deepEqual(
    entries.map((e) => [e.name, e.type]),
    [
      ['app/', 'directory'],
      ['app/out/', 'directory'],
      ['app/out/a.txt', 'file'],
    ],
  );
  assert.equal(entries[2]!.mode, 0o600);
  assert.equal(entries[2]!.content!.toString(), 'A');
});

test('identical inputs give identical archives', async () => {
  const files = [{ name: 'x/y.txt', content: Buffer.from('same') }];
  assert.deepEqual(await packFiles(files), await packFiles(files));
});

test('reading stops at the byte bound', async () => {
  const archive = await packFiles([{ name: 'big', content: Buffer.alloc(10_000) }], undefined, {
    directoryEntries: false,
  });
  await assert.rejects(readTarEntries(Readable.from(archive), 1000), TarTooLargeError);
});
