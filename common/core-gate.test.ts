import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CoreGate } from './core-gate.ts';

const settled = async <T>(promise: Promise<T>): Promise<boolean> => {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

test('holders fit beside each other up to the cores; the next waits until one releases', async () => {
  const gate = new CoreGate(2);
  const a = await gate.acquire(1);
  const b = await gate.acquire(1);
  const c = gate.acquire(1);
  assert.equal(await settled(c), false);
  assert.deepEqual(gate.state(), { heldCores: 2, holders: 2, waiting: 1 });
  a.release();
  assert.equal(await settled(c), true);
  (await c).release();
  b.release();
  assert.deepEqual(gate.state(), { heldCores: 0, holders: 0, waiting: 0 });
});

test('first come first served: a small request does not pass a large one waiting ahead of it', async () => {
  const gate = new CoreGate(2);
  const a = await gate.acquire(1);
  const large = gate.acquire(2);
  const small = gate.acquire(1);
  assert.equal(await settled(small), false, 'the small one would fit, but the large one asked first');
  a.release();
  assert.equal(await settled(large), true);
  assert.equal(await settled(small), false);
  (await large).release();
  assert.equal(await settled(small), true);
});

test('a request larger than the host runs alone rather than never', async () => {
  const gate = new CoreGate(2);
  const huge = await gate.acquire(4);
  const next = gate.acquire(0.5);
  assert.equal(await settled(next), false);
  huge.release();
  assert.equal(await settled(next), true);
});

test('an abort while waiting leaves the queue with the reason, and those behind move up', async () => {
  const gate = new CoreGate(1);
  const a = await gate.acquire(1);
  const controller = new AbortController();
  const aborted = gate.acquire(1, controller.signal);
  const behind = gate.acquire(1);
  controller.abort(new Error('cancelled'));
  await assert.rejects(aborted, /cancelled/);
  assert.equal(gate.state().waiting, 1);
  a.release();
  assert.equal(await settled(behind), true);
  await assert.rejects(gate.acquire(1, controller.signal), /cancelled/, 'an aborted signal never queues');
});

test('a release twice frees the cores once; the wait is measured on the given clock', async () => {
  let now = 0;
  const gate = new CoreGate(1, () => now);
  const a = await gate.acquire(1);
  const b = gate.acquire(1);
  now = 2500;
  a.release();
  a.release();
  assert.equal((await b).waitedMs, 2500);
  assert.deepEqual(gate.state(), { heldCores: 1, holders: 1, waiting: 0 });
  assert.throws(() => new CoreGate(0), /positive number of cores/);
});

test('a holder measured below its declared cores counts what it uses, at least a quarter, and lends the rest', async () => {
  const gate = new CoreGate(2);
  const sleeping = await gate.acquire(1);
  const busy = await gate.acquire(1);
  const next = gate.acquire(1);
  sleeping.measured(0.02);
  assert.equal(gate.state().heldCores, 1.25);
  assert.equal(await settled(next), false, '1.25 + 1 does not fit in 2');
  busy.measured(0.5);
  assert.equal(await settled(next), true, '0.25 + 0.5 + 1 fits');
  const lease = await next;
  busy.measured(3);
  assert.equal(gate.state().heldCores, 2.25, 'a holder never counts more than it declared');
  for (const held of [sleeping, busy, lease]) held.release();
  assert.deepEqual(gate.state(), { heldCores: 0, holders: 0, waiting: 0 });
  sleeping.measured(1);
  assert.equal(gate.state().heldCores, 0, 'a measurement after the release changes nothing');
});
