import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Watchdog, WatchedCallLog, watchdogLimitsFromEnv } from './watchdog.ts';

const limits = { firstCallMs: 120_000, idleMs: 600_000 };
const firstCallFault = 'watchdog: no completed model call in the first 120 s the agent waited on the policy';
const idleFault = 'watchdog: no completed model call in 600 s the agent waited on the policy';

/** A watchdog on a fake clock, started, with its call log. */
function watched() {
  const clock = { now: 0 };
  const watchdog = new Watchdog(limits, () => clock.now);
  const log = new WatchedCallLog(undefined, watchdog);
  watchdog.start();
  /** Moves the clock to `ms` and checks; true when the watchdog has fired. */
  const at = (ms: number) => {
    clock.now = ms;
    watchdog.check();
    return watchdog.signal.aborted;
  };
  return { watchdog, log, at };
}

const startRow = (callId: string) => ({
  callId,
  model: 'm',
  streamed: false,
  promptEstimateTokens: 10,
  promptBoundTokens: 20,
  answerCount: 1,
  maxTokens: 64,
  clamped: false,
  reservedUsd: 0,
  request: {},
});
const endRow = (callId: string, status: 'ok' | 'error') => ({
  callId,
  model: 'm',
  streamed: false,
  attempts: 1,
  basis: status === 'ok' ? ('usage' as const) : ('failed-after-send' as const),
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
  status,
});

test('fires when no call completes in the first 120 s the agent waits on the policy, with the reason', () => {
  const { watchdog, at } = watched();
  watchdog.noteAgentRequestOpened();
  assert.equal(at(119_000), false);
  assert.equal(at(120_000), true);
  assert.equal(watchdog.fault?.kind, 'watchdog');
  assert.equal(watchdog.fault?.message, firstCallFault);
});

test('the clock does not run before the agent asks: a slow agent start is not the policy idling', () => {
  const { watchdog, at } = watched();
  assert.equal(at(500_000), false); // Hermes took 500 s to start on a loaded host
  watchdog.noteAgentRequestOpened();
  assert.equal(at(619_000), false);
  assert.equal(at(620_000), true);
  assert.equal(watchdog.fault?.message, firstCallFault);
});

test('between agent requests (the agent runs a tool command) the clock stands still', () => {
  const { watchdog, at } = watched();
  watchdog.noteAgentRequestOpened();
  at(60_000);
  watchdog.noteAgentRequestClosed(); // answered without a model call, e.g. an error the agent retries
  assert.equal(at(900_000), false);
  watchdog.noteAgentRequestOpened();
  assert.equal(at(959_000), false);
  assert.equal(at(960_000), true);
  watchdog.stop();
});

test('after a completed call only idleness counts; refused and failed calls do not count', () => {
  const { watchdog, log, at } = watched();
  watchdog.noteAgentRequestOpened();
  at(100_000);
  log.ended(endRow('c', 'ok'));
  at(650_000);
  log.refused({ callId: 'r', model: 'm', streamed: false, errorType: 'cap', message: 'over', spentAfterUsd: 0 });
  log.ended(endRow('f', 'error'));
  assert.equal(at(650_000), false);
  assert.equal(at(700_000), true);
  assert.equal(watchdog.fault?.message, idleFault);
  watchdog.stop();
});

test('limits from the environment, refused when not positive', () => {
  assert.deepEqual(watchdogLimitsFromEnv({}), limits);
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
  const { watchdog, log, at } = watched();
  watchdog.noteAgentRequestOpened();
  at(10_000);
  log.started(startRow('slow'));
  assert.equal(at(400_000), false); // a slow model: 390 s on the first answer
  log.ended(endRow('slow', 'error')); // and it failed (the upstream's fault)
  assert.equal(at(500_000), false); // 10 s before + 100 s after the call: 110 s of the policy's own
  assert.equal(at(510_000), true);
  assert.equal(watchdog.fault?.message, firstCallFault);
});

test('after a completed call, a call in flight also stops the idle clock', () => {
  const { watchdog, at } = watched();
  watchdog.noteAgentRequestOpened();
  watchdog.noteCompletedCall();
  at(100_000);
  watchdog.noteCallStarted();
  assert.equal(at(2_000_000), false);
  watchdog.noteCallEnded();
  watchdog.noteCompletedCall();
  assert.equal(at(2_599_000), false);
  assert.equal(at(2_600_000), true);
  assert.equal(watchdog.fault?.message, idleFault);
});

test('two agent requests open at once count the time once', () => {
  const { watchdog, at } = watched();
  watchdog.noteAgentRequestOpened();
  watchdog.noteAgentRequestOpened();
  at(60_000);
  watchdog.noteAgentRequestClosed();
  assert.equal(at(119_000), false);
  watchdog.noteAgentRequestClosed();
  watchdog.noteAgentRequestClosed(); // one close too many is ignored
  assert.equal(at(400_000), false);
  assert.equal(watchdog.policyTimeMs(), 119_000);
});
