import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HostClaims } from './host-claims.ts';

const gib = 1024 ** 3;
/** A host with memory for `scenarios` scenarios of the calibrated 1 GiB, and CPU to spare. */
const room = (scenarios: number) => ({
  budget: { memoryBytes: scenarios * gib, cpus: 64 },
  calibrated: { memoryBytes: gib, cpus: 0.1 },
});

function clock() {
  let nowMs = 0;
  return {
    now: () => nowMs,
    advance: (ms: number) => {
      nowMs += ms;
    },
  };
}

test('a full host takes no further scenario until one is verified', async () => {
  const time = clock();
  const claims = new HostClaims({ ...room(2), idleMs: 1000, now: time.now });
  assert.equal(claims.tryClaim('w/a'), true);
  assert.equal(claims.tryClaim('w/b'), true);
  assert.equal(claims.tryClaim('w/c'), false);
  assert.equal(claims.tryClaim('w/a'), true, 'a claim held is taken again');
  await claims.within('w/a', async () => 'verified', { last: true });
  assert.equal(claims.tryClaim('w/c'), true);
});

test('a claim idle past idleMs is dropped, but never while one of its activities runs', async () => {
  const time = clock();
  const claims = new HostClaims({ ...room(1), idleMs: 1000, now: time.now });
  assert.equal(claims.tryClaim('w/a'), true);
  let release!: () => void;
  const running = claims.within(
    'w/a',
    () =>
      new Promise<void>((resolve) => {
        release = resolve;
      }),
  );
  time.advance(5000);
  assert.equal(claims.tryClaim('w/b'), false, 'a running activity holds its claim');
  release();
  await running;
  time.advance(999);
  assert.equal(claims.tryClaim('w/b'), false);
  time.advance(1);
  assert.equal(claims.tryClaim('w/b'), true, 'idle for idleMs: the room is free');
  assert.equal(claims.active(), 1);
});

test('a failure that ends the scenario (its task is invalid) frees the room at once', async () => {
  const claims = new HostClaims({ ...room(1), idleMs: 120_000 });
  assert.equal(claims.tryClaim('w/a'), true);
  await assert.rejects(
    claims.within('w/a', () => Promise.reject(new Error('task invalid')), {
      endsOnFailure: (error) => (error as Error).message === 'task invalid',
    }),
  );
  assert.equal(claims.tryClaim('w/b'), true, 'no 120 s idle wait');
  await assert.rejects(
    claims.within('w/b', () => Promise.reject(new Error('transient')), { endsOnFailure: () => false }),
  );
  assert.equal(claims.tryClaim('w/c'), false, 'a failure that may be retried keeps the room');
});

test('a held scenario counts what was measured of it when that is more than the estimate, and says why the next waits', () => {
  const claims = new HostClaims({ ...room(3), idleMs: 120_000 });
  assert.equal(claims.tryClaim('w/a'), true);
  assert.equal(claims.tryClaim('w/b'), true);
  claims.observe('w/a', { memoryBytes: 1.5 * gib, cpus: 0.05 });
  assert.equal(claims.tryClaim('w/c'), false, '1.5 + 1 + 1 GiB > 3 GiB');
  assert.match(
    claims.lastRefusal()!.reason,
    /^memory: 2 scenarios hold 2\.50 GiB of 3\.00 GiB, one more needs 1\.00 GiB$/,
  );
  claims.observe('w/a', { memoryBytes: 0.5 * gib, cpus: 0.9 });
  assert.deepEqual(claims.held()[0], { memoryBytes: 1.5 * gib, cpus: 0.9 }, 'the highest memory, the latest CPU share');
  claims.observe('w/x', { memoryBytes: 100 * gib, cpus: 9 });
  assert.deepEqual(claims.keys(), ['w/a', 'w/b'], 'a sample of a scenario not held is ignored');
});

test("finished scenarios' measurements replace the calibrated estimate after three", async () => {
  const claims = new HostClaims({ ...room(4), idleMs: 120_000 });
  for (const [i, mib] of [300, 400, 200].entries()) {
    const key = `w/${i}`;
    assert.equal(claims.tryClaim(key), true);
    claims.observe(key, { memoryBytes: mib * 1024 ** 2, cpus: 0.1 });
    assert.equal(claims.estimate().memoryBytes, gib, 'the calibrated default until three are measured');
    await claims.within(key, async () => undefined, { last: true });
  }
  assert.equal(claims.estimate().memoryBytes, Math.round(400 * 1024 ** 2 * 1.1));
  for (let i = 0; i < 9; i++) assert.equal(claims.tryClaim(`v/${i}`), true, `v/${i}: 9 × 440 MiB fit in 4 GiB`);
  assert.equal(claims.tryClaim('v/9'), false);
});

test("the networks the engine's address pools leave the host bound it, as last sampled", async () => {
  const claims = new HostClaims({ ...room(10), idleMs: 120_000 });
  claims.setNetworksLeft(5);
  assert.equal(claims.tryClaim('w/a'), true);
  assert.equal(claims.tryClaim('w/b'), true);
  assert.equal(claims.tryClaim('w/c'), false, '3 scenarios × 2 networks > 5');
  assert.match(claims.lastRefusal()!.reason, /^networks: 2 scenarios hold 4 of the 5 Docker networks/);
  await claims.within('w/a', async () => undefined, { last: true });
  assert.equal(claims.tryClaim('w/c'), true, 'a finished scenario gives its networks back');
  claims.setNetworksLeft(8);
  assert.equal(claims.tryClaim('w/d'), true, 'networks freed by others count at the next sample');
});

test('waiting scenarios take freed room longest first, then in the order they came', async () => {
  const time = clock();
  const claims = new HostClaims({ ...room(1), idleMs: 120_000, now: time.now });
  assert.equal(claims.tryClaim('w/running', 600), true);
  assert.equal(claims.tryClaim('w/short', 600), false);
  time.advance(100);
  assert.equal(claims.tryClaim('w/long', 1800), false);
  time.advance(100);
  assert.equal(claims.tryClaim('w/short-later', 600), false);
  await claims.within('w/running', async () => undefined, { last: true });
  assert.equal(claims.tryClaim('w/short', 600), false, 'the longer scenario waits, so it goes first');
  assert.deepEqual(
    [claims.lastRefusal()!.full, claims.lastRefusal()!.next, claims.lastRefusal()!.atMs],
    [false, false, 200],
    'room for one, and one longer waits for it: the order refuses it, not the size',
  );
  assert.equal(
    claims.lastRefusal()!.reason,
    '1 waiting scenario ahead of it takes the room first (longer, or waiting longer)',
  );
  assert.equal(claims.tryClaim('w/short-later', 600), false);
  assert.equal(claims.tryClaim('w/long', 1800), true);
  await claims.within('w/long', async () => undefined, { last: true });
  assert.equal(claims.tryClaim('w/short-later', 600), false, 'of two as long, the one that came first');
  assert.equal(claims.tryClaim('w/short', 600), true);
});

test('a waiting claim that is not asked again (taken by another host, or given up) stops holding the others back', () => {
  const time = clock();
  const claims = new HostClaims({ ...room(1), idleMs: 120_000, waitingStaleMs: 12_000, now: time.now });
  assert.equal(claims.tryClaim('w/running', 600), true);
  assert.equal(claims.tryClaim('w/long', 1800), false);
  assert.equal(claims.tryClaim('w/short', 600), false);
  assert.deepEqual(
    [claims.lastRefusal()!.full, claims.lastRefusal()!.next],
    [true, false],
    'the host is full (said so to every waiting claim), and the long one is next',
  );
  time.advance(200_000);
  assert.equal(claims.tryClaim('w/short', 600), true, 'the running one went idle; the long one was not seen for 200 s');
});

test('a full host says so to the claim it would admit next', () => {
  const claims = new HostClaims({ ...room(1), idleMs: 120_000 });
  assert.equal(claims.tryClaim('w/a', 600), true);
  assert.equal(claims.tryClaim('w/b', 600), false);
  assert.equal(claims.lastRefusal()!.full, true);
  assert.match(claims.lastRefusal()!.reason, /^memory: /);
});

test('claims that arrive together (an evaluation starting) are ordered among themselves, not by which came first', () => {
  const time = clock();
  const claims = new HostClaims({ ...room(2), idleMs: 120_000, settleMs: 1000, now: time.now });
  for (const [key, seconds] of [
    ['w/a', 600],
    ['w/b', 900],
    ['w/c', 1800],
  ] as const)
    assert.equal(claims.tryClaim(key, seconds), false, `${key}: first seen now, it waits for the others`);
  assert.match(claims.lastRefusal()!.reason, /^claims arriving together are ordered first/);
  time.advance(1000);
  assert.equal(claims.tryClaim('w/a', 600), false, 'two longer ones wait');
  assert.equal(claims.tryClaim('w/c', 1800), true);
  assert.equal(claims.tryClaim('w/a', 600), false);
  assert.equal(claims.tryClaim('w/b', 900), true);
  assert.equal(claims.tryClaim('w/a', 600), false, 'the host is full now');
  assert.equal(claims.lastRefusal()!.full, true);
});

test('a host with room for every waiting claim takes them all at once, whatever their order', () => {
  const time = clock();
  const claims = new HostClaims({ ...room(3), idleMs: 120_000, settleMs: 1000, now: time.now });
  for (const [key, seconds] of [
    ['w/a', 600],
    ['w/b', 900],
    ['w/c', 1800],
  ] as const)
    assert.equal(claims.tryClaim(key, seconds), false);
  time.advance(1000);
  assert.equal(claims.tryClaim('w/a', 600), true, 'room for it and the two longer ones');
  assert.equal(claims.tryClaim('w/b', 900), true);
  assert.equal(claims.tryClaim('w/c', 1800), true);
});

test('an evaluation whose claims all fit (one scenario, a roomy host) is taken at once; one that does not waits to be ordered', () => {
  const time = clock();
  const claims = new HostClaims({ ...room(3), idleMs: 120_000, settleMs: 1000, now: time.now });
  assert.equal(claims.tryClaim('w/only', 600, 1), true, 'alone, and room for it');
  assert.equal(claims.tryClaim('v/a', 600, 2), true, 'two together, room for both');
  assert.equal(claims.tryClaim('u/a', 600, 3), false, 'three together, room for one: ordered first');
  assert.match(claims.lastRefusal()!.reason, /^claims arriving together are ordered first/);
  time.advance(1000);
  assert.equal(claims.tryClaim('u/a', 600, 3), true, 'settled: next in line, and the room is there');
});

test('a claim the workflow releases frees its room at once, never while one of its activities runs', async () => {
  const claims = new HostClaims({ ...room(1), idleMs: 120_000 });
  assert.equal(claims.tryClaim('w/a'), true);
  await assert.rejects(claims.within('w/a', () => Promise.reject(new Error('spend ceiling reached'))));
  assert.equal(claims.tryClaim('w/b'), false, 'a failed run alone does not end the claim');
  let finish!: () => void;
  const running = claims.within('w/a', () => new Promise<void>((resolve) => (finish = resolve)));
  assert.equal(claims.release('w/a'), false, 'an activity of it still runs');
  finish();
  await running;
  assert.equal(claims.release('w/a'), true);
  assert.equal(claims.release('w/a'), false, 'a second release is nothing to do');
  assert.equal(claims.release('w/unknown'), false);
  assert.equal(claims.tryClaim('w/b'), true);
});

test('a claim sent a while ago, passed back from another host, is not made to settle again', () => {
  const time = clock();
  time.advance(10_000);
  const claims = new HostClaims({ ...room(1), idleMs: 120_000, settleMs: 1000, now: time.now });
  assert.equal(claims.tryClaim('w/new', 0, 4, 10_000), false, 'sent just now: it waits for those sent with it');
  assert.equal(claims.tryClaim('w/bounced', 0, 4, 4_000), true, 'sent 6 s ago and waiting elsewhere since');
});
