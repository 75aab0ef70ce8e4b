import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GenerationRouter, type ConversationPool } from './generation-router.ts';
import type { ServedInstance } from './instance-pool.ts';

/** A pool that keeps the conversations it served until told they went idle. */
function fakePool(name: string): ConversationPool & { served: string[]; closed: boolean; idle(key: string): void } {
  const open = new Set<string>();
  const pool = {
    served: [] as string[],
    closed: false,
    async run<T>(key: string, work: (instance: ServedInstance) => Promise<T>): Promise<T> {
      if (pool.closed) throw new Error(`${name} is closed`);
      open.add(key);
      pool.served.push(key);
      return work({ id: `${name}-${key}` } as ServedInstance);
    },
    has: (key: string) => open.has(key),
    get size() {
      return open.size;
    },
    idle: (key: string) => void open.delete(key),
    async close() {
      pool.closed = true;
      open.clear();
    },
  };
  return pool;
}

test('open conversations finish on the old generation; new ones go to the new', async () => {
  let now = 0;
  const closed: string[] = [];
  const a = fakePool('a');
  const b = fakePool('b');
  const router = new GenerationRouter(
    { packHash: 'A', pool: a },
    { now: () => now, onClosed: (g, reason) => closed.push(`${g.packHash}:${reason}`) },
  );
  const packOf = (key: string) => router.run(key, async (_instance, packHash) => packHash);
  assert.equal(await packOf('x'), 'A');
  router.switchTo({ packHash: 'B', pool: b }, 1000);
  assert.equal(await packOf('x'), 'A');
  assert.equal(await packOf('y'), 'B');
  assert.deepEqual(
    router.draining.map((d) => [d.packHash, d.conversations]),
    [['A', 1]],
  );
  now = 999;
  assert.equal(await packOf('x'), 'A');
  now = 1000;
  assert.equal(await packOf('x'), 'B', 'at the deadline the conversation moves on');
  assert.equal(a.closed, true);
  assert.deepEqual(closed, ['A:deadline']);
  await router.close();
});

test('a draining generation closes as soon as its last conversation is idle', async () => {
  const closed: string[] = [];
  const a = fakePool('a');
  const router = new GenerationRouter(
    { packHash: 'A', pool: a },
    { now: () => 0, onClosed: (g, reason) => closed.push(`${g.packHash}:${reason}`) },
  );
  await router.run('x', async () => undefined);
  router.switchTo({ packHash: 'B', pool: fakePool('b') }, 60_000);
  assert.equal(a.closed, false);
  a.idle('x');
  router.sweep();
  assert.equal(a.closed, true);
  assert.deepEqual(closed, ['A:drained']);
  await router.close();
});

test('a generation with no open conversation closes at once; the same pack is not switched to twice', async () => {
  const a = fakePool('a');
  const router = new GenerationRouter({ packHash: 'A', pool: a }, { now: () => 0 });
  router.switchTo({ packHash: 'B', pool: fakePool('b') }, 60_000);
  assert.equal(a.closed, true);
  assert.throws(() => router.switchTo({ packHash: 'B', pool: fakePool('b2') }, 1), /already served/);
  await router.close();
});

test('three hand-overs: a conversation stays on the newest generation that has it', async () => {
  const pools = [fakePool('a'), fakePool('b'), fakePool('c')];
  const router = new GenerationRouter({ packHash: 'A', pool: pools[0]! }, { now: () => 0 });
  await router.run('x', async () => undefined);
  router.switchTo({ packHash: 'B', pool: pools[1]! }, 10);
  await router.run('y', async () => undefined);
  router.switchTo({ packHash: 'C', pool: pools[2]! }, 10);
  const packOf = (key: string) => router.run(key, async (_instance, packHash) => packHash);
  assert.deepEqual([await packOf('x'), await packOf('y'), await packOf('z')], ['A', 'B', 'C']);
  await router.close();
  assert.ok(pools.every((pool) => pool.closed));
});
