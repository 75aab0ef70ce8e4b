import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AppendLog } from './append-log.ts';

test('lines are appended and close resolves', async () => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'trl-append-')), 'a', 'log.jsonl');
  const log = new AppendLog(file);
  log.write('one\n');
  log.write('two\n');
  await log.close();
  assert.equal(readFileSync(file, 'utf8'), 'one\ntwo\n');
});

test('a full disk neither crashes the process nor hangs close: close rejects with the error', async () => {
  // /dev/full answers every write with ENOSPC.
  const log = new AppendLog('/dev/full');
  log.write('x'.repeat(100_000));
  log.write('more\n');
  await assert.rejects(log.close(), /could not write \/dev\/full: .*ENOSPC/);
  assert.match(log.error?.message ?? '', /ENOSPC/);
});
