import { test } from 'node:test';
import assert from 'node:assert/strict';
import { followSeat } from './seat-follower.ts';

test('a new incumbent is handed over once; an empty seat or a failed poll keeps the current pack', async () => {
  const answers: (string | undefined | Error)[] = ['A', undefined, new Error('temporal unreachable'), 'B', 'B'];
  const changes: string[] = [];
  const errors: string[] = [];
  const follower = followSeat({
    initialHash: 'A',
    intervalMs: 60_000,
    readSeatHash: async () => {
      const next = answers.shift();
      if (next instanceof Error) throw next;
      return next;
    },
    onChange: async (hash) => void changes.push(hash),
    onError: (error) => errors.push(error.message),
  });
  for (let i = 0; i < 5; i++) await follower.pollNow();
  follower.stop();
  assert.deepEqual(changes, ['B']);
  assert.deepEqual(errors, ['temporal unreachable']);
});

test('a hand-over that fails is tried again at the next poll', async () => {
  let attempts = 0;
  const follower = followSeat({
    initialHash: 'A',
    intervalMs: 60_000,
    readSeatHash: async () => 'B',
    onChange: async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('the new policy did not start');
    },
    onError: () => undefined,
  });
  await follower.pollNow();
  await follower.pollNow();
  await follower.pollNow();
  follower.stop();
  assert.equal(attempts, 2);
});
