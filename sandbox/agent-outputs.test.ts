// Hostile agent outputs: every shape ends as a small, bounded result with notes; none escapes as
// an error the worker cannot handle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { collectAgentOutputs } from './agent-outputs.ts';
import type { ContainerSession } from './container-session.ts';
import { packFiles, readTarEntries, type ArchiveFile } from './tar-archive.ts';

/** A session whose container holds one archive per path, streamed in 64 KiB chunks like Docker's. */
function fakeSession(archives: Record<string, Buffer>): ContainerSession {
  return {
    async download(containerPath: string, maxBytes: number, maxEntries?: number) {
      const archive = archives[containerPath];
      if (!archive) return undefined;
      const chunks: Buffer[] = [];
      for (let i = 0; i < archive.length; i += 65_536) chunks.push(archive.subarray(i, i + 65_536));
      return readTarEntries(Readable.from(chunks), maxBytes, maxEntries);
    },
  } as unknown as ContainerSession;
}

test('30 k empty files (the 150 k attack, scaled): refused by the entry bound with one note, nothing copied', async () => {
  const files: ArchiveFile[] = Array.from({ length: 30_000 }, (_, i) => ({
    name: `out/f${i}`,
    content: Buffer.alloc(0),
  }));
  const archive = await packFiles(files, undefined, { directoryEntries: false });
  const collected = await collectAgentOutputs(fakeSession({ '/app/out': archive }), ['/app/out'], 64 << 20);
  assert.equal(collected.fileCount, 0);
  assert.deepEqual(collected.notes, ['/app/out: more than the 20000-entry output limit; not copied']);
});

test('an output over the byte limit is a note; the other declared paths are still copied', async () => {
  const big = await packFiles([{ name: 'big/blob', content: Buffer.alloc(2 << 20) }], undefined, {
    directoryEntries: false,
  });
  const small = await packFiles([{ name: 'small/a.txt', content: Buffer.from('ok') }], undefined, {
    directoryEntries: false,
  });
  const collected = await collectAgentOutputs(
    fakeSession({ '/app/big': big, '/app/small': small }),
    ['/app/big', '/app/small'],
    1 << 20,
  );
  assert.equal(collected.fileCount, 1);
  assert.match(collected.notes[0]!, /larger than the 1048576-byte output limit/);
});

test('names with newlines are dropped with an escaped one-line note; thousands of odd entries give a capped list', async () => {
  const files: ArchiveFile[] = [
    { name: 'out/evil\nname.txt', content: Buffer.from('x') },
    ...Array.from({ length: 5000 }, (_, i) => ({ name: `elsewhere/${i}`, content: Buffer.alloc(0) })),
  ];
  const archive = await packFiles(files, undefined, { directoryEntries: false });
  const collected = await collectAgentOutputs(fakeSession({ '/app/out': archive }), ['/app/out'], 64 << 20);
  assert.equal(collected.fileCount, 0);
  assert.equal(collected.notes[0], '"out/evil\\nname.txt": control characters in the name; dropped');
  assert.ok(collected.notes.every((note) => !note.includes('\n')));
  assert.match(collected.notes.at(-1)!, /^\+\d+ more$/);
  assert.ok(Buffer.byteLength(JSON.stringify(collected.notes)) < 20 * 1024);
});
