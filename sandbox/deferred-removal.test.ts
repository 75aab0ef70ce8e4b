import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { engineUnavailable, pendingRemovals, removeNowOrLater } from './deferred-removal.ts';

const away = Object.assign(new Error('connect ENOENT /var/run/docker.sock'), { code: 'ENOENT' });

test('a removal while the engine is away is done later, once it answers', async () => {
  let tries = 0;
  const remove = async () => {
    tries++;
    if (tries < 3) throw away;
  };
  await removeNowOrLater('container abc', remove, 20);
  assert.deepEqual(pendingRemovals(), ['container abc']);
  for (let waited = 0; pendingRemovals().length > 0 && waited < 100; waited++) await sleep(20);
  assert.deepEqual(pendingRemovals(), []);
  assert.equal(tries, 3);
});

test('other errors are thrown at once, not deferred', async () => {
  await assert.rejects(
    removeNowOrLater(
      'container def',
      async () => {
        throw Object.assign(new Error('conflict'), { statusCode: 409 });
      },
      20,
    ),
    /conflict/,
  );
  assert.deepEqual(pendingRemovals(), []);
});

test('what counts as the engine being away', () => {
  assert.equal(engineUnavailable(away), true);
  assert.equal(engineUnavailable({ code: 'ECONNREFUSED' }), true);
  assert.equal(engineUnavailable({ statusCode: 500 }), true);
  assert.equal(engineUnavailable({ statusCode: 404 }), false);
  assert.equal(engineUnavailable(new Error('other')), false);
});
