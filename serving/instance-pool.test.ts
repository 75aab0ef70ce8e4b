import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InstanceFailedError, InstancePool, PoolFullError, type ServedInstance } from './instance-pool.ts';

function fakes() {
  const made: (ServedInstance & { crash(reason: string): void; stopped: boolean })[] = [];
  const startInstance = async (id: string) => {
    let failure: string | undefined;
    const instance = {
      id,
      url: `http://127.0.0.1/${id}/v1`,
      stopped: false,
      failure: () => failure,
      worn: () => false,
      calls: () => [],
      crash(reason: string) {
        failure = reason;
      },
      async stop() {
        instance.stopped = true;
      },
    };
    made.push(instance);
    return instance;
  };
  return { made, startInstance };
}

test('one conversation stays on its instance; two conversations get two', async () => {
  const { made, startInstance } = fakes();
  const pool = new InstancePool({ maxInstances: 4, idleMs: 60_000, startInstance });
  const a1 = await pool.run('a', async (i) => i.id);
  const b = await pool.run('b', async (i) => i.id);
  const a2 = await pool.run('a', async (i) => i.id);
  assert.equal(a1, a2);
  assert.notEqual(a1, b);
  assert.equal(made.length, 2);
  await pool.close();
  assert.ok(made.every((i) => i.stopped));
});

test("a conversation's requests run one at a time", async () => {
  const { startInstance } = fakes();
  const pool = new InstancePool({ maxInstances: 1, idleMs: 60_000, startInstance });
  const order: string[] = [];
  let release!: () => void;
  const first = pool.run('a', async () => {
    order.push('first starts');
    await new Promise<void>((r) => (release = r));
    order.push('first ends');
  });
  const second = pool.run('a', async () => {
    order.push('second starts');
  });
  await new Promise((r) => setImmediate(r));
  release();
  await Promise.all([first, second]);
  assert.deepEqual(order, ['first starts', 'first ends', 'second starts']);
  await pool.close();
});

test('a full pool evicts the least recently used idle instance, and refuses when all are busy', async () => {
  let clock = 0;
  const { made, startInstance } = fakes();
  const pool = new InstancePool({ maxInstances: 2, idleMs: 60_000, startInstance, now: () => clock });
  await pool.run('a', async () => undefined);
  clock = 1;
  await pool.run('b', async () => undefined);
  clock = 2;
  await pool.run('c', async () => undefined);
  await new Promise((r) => setImmediate(r));
  assert.equal(made[0]!.stopped, true, 'a was the least recently used');
  assert.equal(made[1]!.stopped, false);
  let release!: () => void;
  const holdB = pool.run('b', () => new Promise<void>((r) => (release = r)));
  const holdC = pool.run('c', () => new Promise<void>((r) => setTimeout(r, 10)));
  await assert.rejects(
    pool.run('d', async () => undefined),
    PoolFullError,
  );
  release();
  await Promise.all([holdB, holdC]);
  await pool.close();
});

test('idle instances are reaped', async () => {
  let clock = 0;
  const { made, startInstance } = fakes();
  const pool = new InstancePool({ maxInstances: 2, idleMs: 1000, startInstance, now: () => clock });
  await pool.run('a', async () => undefined);
  clock = 999;
  pool.reap();
  assert.equal(pool.size, 1);
  clock = 1000;
  pool.reap();
  assert.equal(pool.size, 0);
  await new Promise((r) => setImmediate(r));
  assert.equal(made[0]!.stopped, true);
  await pool.close();
});

test('a crashed instance fails its request clearly and is replaced on the next one', async () => {
  const { made, startInstance } = fakes();
  const pool = new InstancePool({ maxInstances: 2, idleMs: 60_000, startInstance });
  await pool.run('a', async () => undefined);
  await assert.rejects(
    pool.run('a', async (i) => {
      made[0]!.crash('the sandbox exited (137)');
      throw new Error(`fetch to ${i.url} failed`);
    }),
    (error: unknown) => error instanceof InstanceFailedError && /exited \(137\).*replaced/.test(error.message),
  );
  assert.equal(await pool.run('a', async (i) => i.id), 'i2');
  made[1]!.crash('killed between requests');
  await assert.rejects(
    pool.run('a', async () => 'never'),
    /killed between requests/,
  );
  assert.equal(await pool.run('a', async (i) => i.id), 'i3');
  await pool.close();
});

test('an instance that fails to start is an error for its request, not a hang', async () => {
  const pool = new InstancePool({
    maxInstances: 1,
    idleMs: 60_000,
    startInstance: async () => {
      throw new Error('no image');
    },
  });
  await assert.rejects(
    pool.run('a', async () => undefined),
    /did not start: no image/,
  );
  assert.equal(pool.size, 0);
  await pool.close();
});
