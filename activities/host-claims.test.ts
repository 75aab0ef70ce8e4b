import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HostClaims } from './host-claims.ts';

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
  const claims = new HostClaims({ capacity: 2, idleMs: 1000, now: time.now });
  assert.equal(claims.tryClaim('w/a'), true);
  assert.equal(claims.tryClaim('w/b'), true);
  assert.equal(claims.tryClaim('w/c'), false);
  assert.equal(claims.tryClaim('w/a'), true, 'a claim held is taken again');
  await claims.within('w/a', async () => 'verified', { last: true });
  assert.equal(claims.tryClaim('w/c'), true);
});

test('a claim idle past idleMs is dropped, but never while one of its activities runs', async () => {
  const time = clock();
  const claims = new HostClaims({ capacity: 1, idleMs: 1000, now: time.now });
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
  const claims = new HostClaims({ capacity: 1, idleMs: 120_000 });
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
