import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PolicyChannel, policyChannelDirInSandbox, removeOrphanChannelDirs } from './policy-channel.ts';

function recorder() {
  const lines: string[] = [];
  const broken: string[] = [];
  let overflows = 0;
  return {
    lines,
    broken,
    get overflows() {
      return overflows;
    },
    events: {
      onLine: (line: string) => lines.push(line),
      onOverflow: () => {
        overflows += 1;
      },
      onBroken: (reason: string) => broken.push(reason),
    },
  };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.ok(check(), 'the condition held within a second');
}

test('what the host sends before the runner connects arrives first and in order; lines come back whole', async () => {
  const seen = recorder();
  const channel = await PolicyChannel.open(1024, seen.events);
  try {
    assert.match(channel.pathInSandbox, new RegExp(`^${policyChannelDirInSandbox}/[0-9a-f]{24}\\.sock$`));
    channel.send('{"t":"init"}');
    channel.send('{"t":"request","id":"r1"}');
    const runner = net.connect(channel.hostPath);
    let received = '';
    runner.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    await until(() => received.split('\n').length === 3);
    assert.equal(received, '{"t":"init"}\n{"t":"request","id":"r1"}\n');
    runner.write('{"t":"ready"}\n{"t":"log","mess');
    runner.write('age":"split across writes"}\n');
    await until(() => seen.lines.length === 2);
    assert.deepEqual(seen.lines, ['{"t":"ready"}', '{"t":"log","message":"split across writes"}']);
    runner.destroy();
    await until(() => seen.broken.length === 1);
  } finally {
    await channel.close();
  }
});

test('one connection only: a second one (the policy, another process) is refused, and the first still works', async () => {
  const seen = recorder();
  const channel = await PolicyChannel.open(1024, seen.events);
  try {
    const runner = net.connect(channel.hostPath);
    await once(runner, 'connect');
    await until(() => channel.connected);
    const intruder = net.connect(channel.hostPath);
    const [error] = (await once(intruder, 'error')) as [NodeJS.ErrnoException];
    assert.ok(error.code === 'ECONNREFUSED' || error.code === 'ENOENT', `refused, got ${error.code}`);
    runner.write('{"t":"ready"}\n');
    await until(() => seen.lines.length === 1);
    runner.destroy();
  } finally {
    await channel.close();
  }
});

test('a line over the bound is reported once and skipped; the next line still arrives', async () => {
  const seen = recorder();
  const channel = await PolicyChannel.open(64, seen.events);
  try {
    const runner = net.connect(channel.hostPath);
    runner.write(`${'x'.repeat(10_000)}\n{"t":"ready"}\n`);
    await until(() => seen.lines.length === 1);
    assert.equal(seen.overflows, 1);
    assert.deepEqual(seen.lines, ['{"t":"ready"}']);
    runner.destroy();
  } finally {
    await channel.close();
  }
});

test('the directory can be entered, not listed; the socket is reachable by the sandbox user; close removes both and is not a break', async () => {
  const seen = recorder();
  const channel = await PolicyChannel.open(64, seen.events);
  assert.equal((await stat(channel.hostDir)).mode & 0o777, 0o711);
  assert.equal((await stat(channel.hostPath)).mode & 0o777, 0o666);
  const runner = net.connect(channel.hostPath);
  await once(runner, 'connect');
  await until(() => channel.connected);
  const runnerClosed = once(runner, 'close');
  await channel.close();
  await assert.rejects(stat(channel.hostDir), { code: 'ENOENT' });
  await runnerClosed;
  assert.deepEqual(seen.broken, [], 'the host closing its own channel is not reported as a break');
  channel.send('{"t":"after"}'); // ignored, no throw
});

test("at start, channel directories of dead processes go; this process's and other live ones' stay", async () => {
  const parent = await mkdtemp(path.join(os.tmpdir(), 'trl-channel-sweep-'));
  try {
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid!; // exited by now
    const livePid = process.ppid;
    for (const name of [
      `trl-policy-${deadPid}-abc`,
      `trl-policy-${process.pid}-def`,
      `trl-policy-${livePid}-ghi`,
      'trl-policy-notapid-jkl',
      'someone-else',
    ]) {
      await mkdir(path.join(parent, name, 'inner'), { recursive: true });
    }
    assert.equal(await removeOrphanChannelDirs(parent), 1);
    assert.deepEqual(
      (await readdir(parent)).sort(),
      [`trl-policy-${livePid}-ghi`, `trl-policy-${process.pid}-def`, 'someone-else', 'trl-policy-notapid-jkl'].sort(),
    );
    assert.equal(
      await removeOrphanChannelDirs(path.join(parent, 'missing')),
      0,
      'a missing parent is nothing to sweep',
    );
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
  const channel = await PolicyChannel.open(64, recorder().events);
  try {
    assert.match(
      path.basename(channel.hostDir),
      new RegExp(`^trl-policy-${process.pid}-`),
      'a channel names the process that listens in it',
    );
  } finally {
    await channel.close();
  }
});
