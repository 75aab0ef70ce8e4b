import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { withSteadyHeartbeat } from './steady-heartbeat.ts';

test('beats on its period while the work runs, and stops when it resolves', async () => {
  mock.timers.enable({ apis: ['setInterval'] });
  try {
    let beats = 0;
    let finish!: (value: string) => void;
    const running = withSteadyHeartbeat(
      () => beats++,
      () => new Promise<string>((resolve) => (finish = resolve)),
      5_000,
    );
    mock.timers.tick(4_999);
    assert.equal(beats, 0);
    mock.timers.tick(1);
    assert.equal(beats, 1);
    mock.timers.tick(20_000);
    assert.equal(beats, 5, 'a 20 s silence (the scenario heartbeat timeout) gets four beats, not none');
    finish('done');
    assert.equal(await running, 'done');
    mock.timers.tick(60_000);
    assert.equal(beats, 5, 'no beat after the work settled');
  } finally {
    mock.timers.reset();
  }
});

test('stops beating when the work throws, and passes the error on', async () => {
  mock.timers.enable({ apis: ['setInterval'] });
  try {
    let beats = 0;
    let fail!: (error: Error) => void;
    const running = withSteadyHeartbeat(
      () => beats++,
      () => new Promise<never>((_, reject) => (fail = reject)),
      1_000,
    );
    mock.timers.tick(3_000);
    fail(new Error('the sandbox is gone'));
    await assert.rejects(running, /the sandbox is gone/);
    mock.timers.tick(10_000);
    assert.equal(beats, 3);
  } finally {
    mock.timers.reset();
  }
});

test('a beat that throws (the activity already settled) does not break the clock or the work', async () => {
  mock.timers.enable({ apis: ['setInterval'] });
  try {
    let calls = 0;
    let finish!: () => void;
    const running = withSteadyHeartbeat(
      () => {
        calls++;
        throw new Error('heartbeat after completion');
      },
      () => new Promise<void>((resolve) => (finish = resolve)),
      1_000,
    );
    mock.timers.tick(3_000);
    assert.equal(calls, 3);
    finish();
    await running;
  } finally {
    mock.timers.reset();
  }
});
