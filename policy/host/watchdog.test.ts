import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Watchdog, WatchedCallLog, watchdogLimitsFromEnv } from './watchdog.ts';

test('fires when no call completes within the first-call limit, with the reason', () => {
  let now = 0;
  const watchdog = new Watchdog({ firstCallMs: 120_000, idleMs: 600_000 }, () => now);
  watchdog.start();
  now = 119_000;
  watchdog.check();
  assert.equal(watchdog.signal.aborted, false);
  now = 120_000;
  watchdog.check();
  assert.equal(watchdog.signal.aborted, true);
  assert.equal(watchdog.fault?.kind, 'watchdog');
  assert.match(watchdog.fault!.message, /no completed model call within 120 s/);
});

test('after a completed call only idleness counts; refused and failed calls do not count', () => {
  let now = 0;
  const watchdog = new Watchdog({ firstCallMs: 120_000, idleMs: 600_000 }, () => now);
  const log = new WatchedCallLog(undefined, watchdog);
  watchdog.start();
  const end = {
    callId: 'c',
    model: 'm',
    streamed: false,
    attempts: 1,
    basis: 'usage' as const,
    promptTokens: 0,
    cachedPromptTokens: 0,
    completionTokens: 0,
    maxTokens: 64,
    clamped: false,
    reservedUsd: 0,
    costUsd: 0,
    overshootUsd: 0,
    spentAfterUsd: 0,
    latencyMs: 0,
  };
  now = 100_000;
  log.ended({ ...end, status: 'ok' });
  now = 650_000;
  log.refused({ callId: 'r', model: 'm', streamed: false, errorType: 'cap', message: 'over', spentAfterUsd: 0 });
  log.ended({ ...end, status: 'error', basis: 'failed-after-send' });
  watchdog.check();
  assert.equal(watchdog.signal.aborted, false);
  now = 700_000;
  watchdog.check();
  assert.equal(watchdog.fault?.message, 'watchdog: no completed model call in 600 s');
  watchdog.stop();
});

test('limits from the environment, refused when not positive', () => {
  assert.deepEqual(watchdogLimitsFromEnv({}), { firstCallMs: 120_000, idleMs: 600_000 });
  assert.deepEqual(watchdogLimitsFromEnv({ TRL_WATCHDOG_FIRST_CALL_SEC: '5', TRL_WATCHDOG_IDLE_SEC: '0.5' }), {
    firstCallMs: 5000,
    idleMs: 500,
  });
  assert.throws(
    () => watchdogLimitsFromEnv({ TRL_WATCHDOG_IDLE_SEC: '-1' }),
    /TRL_WATCHDOG_IDLE_SEC must be a positive number/,
  );
});

test('the clocks stand still while a gateway call is in flight: the upstream time is not the policy idleness', () => {
  let now = 0;
  const watchdog = new Watchdog({ firstCallMs: 120_000, idleMs: 600_000 }, () => now);
  const log = new WatchedCallLog(undefined, watchdog);
  watchdog.start();
  const start = {
    callId: 'slow',
    model: 'm',
    streamed: false,
    promptEstimateTokens: 10,
    promptBoundTokens: 20,
    answerCount: 1,
    maxTokens: 64,
    clamped: false,
    reservedUsd: 0,
    request: {},
  };
  const end = {
    callId: 'slow',
    model: 'm',
    streamed: false,
    attempts: 1,
    basis: 'usage' as const,
    promptTokens: 0,
    cachedPromptTokens: 0,
    completionTokens: 0,
    maxTokens: 64,
    clamped: false,
    reservedUsd: 0,
    costUsd: 0,
    overshootUsd: 0,
    spentAfterUsd: 0,
    latencyMs: 0,
  };
  now = 10_000;
  log.started(start);
  now = 400_000; // a slow model: 390 s on the first answer
  watchdog.check();
  assert.equal(watchdog.signal.aborted, false);
  log.ended({ ...end, status: 'error', basis: 'failed-after-send' }); // and it failed (the upstream's fault)
  now = 500_000; // 10 s before + 100 s after the call: 110 s of the policy's own
  watchdog.check();
  assert.equal(watchdog.signal.aborted, false);
  now = 510_000;
  watchdog.check();
  assert.equal(watchdog.fault?.message, 'watchdog: no completed model call within 120 s of the start');
});

test('after a completed call, a call in flight also stops the idle clock', () => {
  let now = 0;
  const watchdog = new Watchdog({ firstCallMs: 120_000, idleMs: 600_000 }, () => now);
  watchdog.start();
  watchdog.noteCompletedCall();
  now = 100_000;
  watchdog.noteCallStarted();
  now = 2_000_000;
  watchdog.check();
  assert.equal(watchdog.signal.aborted, false);
  watchdog.noteCallEnded();
  watchdog.noteCompletedCall();
  now = 2_599_000;
  watchdog.check();
  assert.equal(watchdog.signal.aborted, false);
  now = 2_600_000;
  watchdog.check();
  assert.equal(watchdog.fault?.message, 'watchdog: no completed model call in 600 s');
});
