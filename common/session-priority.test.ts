import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { setSessionNice } from './session-priority.ts';

const autogroups = existsSync('/proc/self/autogroup');

test('a session of its own gets the nice value; this process’s session is left as it was', {
  skip: !autogroups && 'no autogroups here',
}, async () => {
  const own = readFileSync('/proc/self/autogroup', 'utf8');
  const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
  try {
    assert.ok(child.pid);
    assert.equal(await setSessionNice(child.pid, 7), true);
    assert.match(readFileSync(`/proc/${child.pid}/autogroup`, 'utf8'), /nice 7/);
    assert.equal(readFileSync('/proc/self/autogroup', 'utf8'), own);
  } finally {
    child.kill('SIGKILL');
  }
});

test('a process that is gone is no error: false, and nothing changes', async () => {
  assert.equal(await setSessionNice(2 ** 22 + 12345, 5), false);
});
