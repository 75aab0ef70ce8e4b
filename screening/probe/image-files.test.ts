import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { imageReadLimits, parseReaderOutput, readerScript } from './image-files.ts';

test('the reader output parses into files with their sizes; a NUL byte marks a binary file; heads are cut', () => {
  const text =
    '\u001erepo/a.txt\u001f5\u001fhello' +
    '\u001erepo/bin\u001f3\u001fa\u0000b' +
    `\u001erepo/long.md\u001f9000\u001f${'x'.repeat(6000)}`;
  assert.deepEqual(parseReaderOutput(text), [
    { name: 'repo/a.txt', size: 5, head: 'hello' },
    { name: 'repo/bin', size: 3, head: '(binary file)' },
    { name: 'repo/long.md', size: 9000, head: 'x'.repeat(imageReadLimits.headChars) },
  ]);
  assert.deepEqual(parseReaderOutput('no records\u001fat all'), []);
});

test('the reader script, run by sh over a folder: files in path order, .git pruned, depth and count bounded', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'trl-image-reader-'));
  try {
    await mkdir(path.join(root, 'repo', '.git', 'refs'), { recursive: true });
    await writeFile(path.join(root, 'repo', '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await mkdir(path.join(root, 'a', 'b', 'c', 'd', 'e'), { recursive: true });
    await writeFile(path.join(root, 'a', 'b', 'c', 'd', 'deep.txt'), 'too deep');
    await writeFile(path.join(root, 'a', 'b', 'c', 'kept.txt'), 'kept');
    await writeFile(path.join(root, 'repo', 'z.py'), 'print(1)\n');
    for (let i = 0; i < 50; i++) await writeFile(path.join(root, `f${String(i).padStart(2, '0')}.txt`), `file ${i}`);
    const output = execFileSync('sh', ['-c', readerScript(), 'reader', root]);
    const files = parseReaderOutput(output.toString('utf8'));
    assert.equal(files.length, imageReadLimits.maxFiles);
    assert.equal(files[0]!.name, 'a/b/c/kept.txt');
    assert.equal(files[0]!.head, 'kept');
    assert.ok(!files.some((file) => file.name.includes('.git') || file.name.endsWith('deep.txt')));
    assert.deepEqual(
      files.map((file) => file.name),
      files.map((file) => file.name).sort(),
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
