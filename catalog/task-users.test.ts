import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isTaskFolder, resolveTaskUsers } from './task-users.ts';
import { parseTaskToml } from './load-scenario.ts';

const config = (text: string) => parseTaskToml('s', text);

test("the agent runs as [agent] user, else the image's USER, never root", () => {
  assert.equal(resolveTaskUsers('s', config(''), '').agent, 'agent');
  assert.equal(resolveTaskUsers('s', config(''), 'builder:staff').agent, 'builder');
  assert.equal(resolveTaskUsers('s', config('[agent]\nuser = "dev"'), 'builder').agent, 'dev');
  const root = resolveTaskUsers('s', config(''), 'root');
  assert.equal(root.agent, 'agent');
  assert.match(root.notes.join(), /never run as root/);
  assert.equal(resolveTaskUsers('s', config('[agent]\nuser = 0'), '').agent, 'agent');
});

test('the tests run as root or [verifier] user, never as a user agent code runs as', () => {
  assert.equal(resolveTaskUsers('s', config(''), '').verifier, undefined);
  assert.equal(resolveTaskUsers('s', config('[verifier]\nuser = "root"'), '').verifier, undefined);
  assert.equal(resolveTaskUsers('s', config('[verifier]\nuser = "grader"'), '').verifier, 'grader');
  assert.throws(() => resolveTaskUsers('s', config('[verifier]\nuser = "agent"'), ''), /need a user of their own/);
  assert.throws(
    () => resolveTaskUsers('s', config('[agent]\nuser = "dev"\n[verifier]\nuser = "dev"'), ''),
    /need a user of their own/,
  );
});

test("the working directory handed to the agent is the task's own folder, never / or the system's", () => {
  for (const dir of ['/app', '/workspace', '/home/user/project', '/opt/app', '/srv/site/', '/tmp/task'])
    assert.equal(isTaskFolder(dir), true, dir);
  for (const dir of [
    '/',
    '//',
    '/usr',
    '/usr/local/src',
    '/etc/nginx',
    '/proc',
    '/var/lib',
    '/home',
    '/opt/',
    '/root',
    'app',
  ])
    assert.equal(isTaskFolder(dir), false, dir);
});
