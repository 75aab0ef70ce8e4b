import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { ShadowMirror, sessionShare, type ShadowRecord } from './shadow-mirror.ts';
import type { ConversationRouter } from './generation-router.ts';
import type { MeteredCall, ServedInstance } from './instance-pool.ts';
import type { AnsweredRequest } from './serve-server.ts';

/** A policy endpoint on loopback whose every answer costs $0.01 on one model. */
async function fakeInstance(
  status = 200,
): Promise<{ router: ConversationRouter; close(): Promise<void>; bodies: unknown[] }> {
  const calls: MeteredCall[] = [];
  const bodies: unknown[] = [];
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      bodies.push(JSON.parse(text));
      calls.push({ model: 'glm-5.3-flash', costUsd: 0.01, promptTokens: 10, completionTokens: 2 });
      response
        .writeHead(status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'ok' } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const instance = { id: 's1', url: `http://127.0.0.1:${port}/v1`, calls: () => calls } as unknown as ServedInstance;
  return {
    router: { run: (_key, work) => work(instance, 'SHADOW') },
    bodies,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const live = (session: string): AnsweredRequest => ({
  session,
  body: { model: 'auto', messages: [{ role: 'user', content: 'hi' }], stream: true },
  status: 200,
  latencyMs: 12,
  cost: { costUsd: 0.002, models: ['qwen3.6-35b-a3b'], calls: 1, promptTokens: 5, completionTokens: 1 },
});

test('the sample is a stable share of conversations', () => {
  const sessions = Array.from({ length: 2000 }, (_, i) => `s-${i}`);
  const share = sessions.filter((session) => sessionShare(session) < 0.25).length / sessions.length;
  assert.ok(share > 0.2 && share < 0.3, `share ${share}`);
  assert.equal(sessionShare('s-1'), sessionShare('s-1'));
});

test('mirrored requests are recorded beside the live ones; streamed ones are replayed whole', async () => {
  const shadow = await fakeInstance();
  const records: ShadowRecord[] = [];
  const mirror = new ShadowMirror({
    shadowPack: 'SHADOW',
    conversations: shadow.router,
    sampleRate: 1,
    capUsd: 1,
    maxInFlight: 4,
    timeoutMs: 5000,
    record: (entry) => records.push(entry),
  });
  // One fake instance serves both: one at a time, so each request's cost is its own.
  mirror.mirror(live('a'));
  await mirror.settle();
  mirror.mirror(live('b'));
  await mirror.settle();
  await shadow.close();
  assert.equal(records.length, 2);
  assert.deepEqual(
    records.map((r) => [r.status, r.costUsd, r.models, r.live.costUsd]),
    [
      [200, 0.01, ['glm-5.3-flash'], 0.002],
      [200, 0.01, ['glm-5.3-flash'], 0.002],
    ],
  );
  assert.equal((shadow.bodies[0] as { stream: boolean }).stream, false);
  const summary = mirror.summary();
  assert.deepEqual(
    [summary.shadow.requests, summary.shadow.costUsd, summary.live.costUsd, summary.live.models['qwen3.6-35b-a3b']],
    [2, 0.02, 0.004, 2],
  );
});

test('past its cap or with every instance busy, the shadow skips (and counts) instead of queueing', async () => {
  const shadow = await fakeInstance();
  const mirror = new ShadowMirror({
    shadowPack: 'SHADOW',
    conversations: shadow.router,
    sampleRate: 1,
    capUsd: 0.015,
    maxInFlight: 1,
    timeoutMs: 5000,
    record: () => undefined,
  });
  mirror.mirror(live('a'));
  mirror.mirror(live('b'));
  await mirror.settle();
  mirror.mirror(live('c'));
  await mirror.settle();
  mirror.mirror(live('d'));
  await mirror.settle();
  await shadow.close();
  const summary = mirror.summary();
  assert.deepEqual([summary.shadow.requests, summary.skippedBusy, summary.skippedCap], [2, 1, 1]);
});

test('a failing shadow is recorded as failed; nothing is thrown at the live path', async () => {
  const broken: ConversationRouter = {
    run: async () => {
      throw new Error('the shadow policy crashed');
    },
  };
  const failing = await fakeInstance(500);
  const records: ShadowRecord[] = [];
  for (const router of [broken, failing.router]) {
    const mirror = new ShadowMirror({
      shadowPack: 'SHADOW',
      conversations: router,
      sampleRate: 1,
      capUsd: 1,
      maxInFlight: 1,
      timeoutMs: 5000,
      record: (entry) => records.push(entry),
    });
    mirror.mirror(live('a'));
    await mirror.settle();
    assert.equal(mirror.summary().shadow.failed, 1);
  }
  await failing.close();
  assert.deepEqual(
    records.map((r) => r.status),
    [502, 500],
  );
  assert.match(records[0]!.error!, /crashed/);
});

test('a sample rate of 0 mirrors nothing', async () => {
  let runs = 0;
  const mirror = new ShadowMirror({
    shadowPack: 'SHADOW',
    conversations: {
      run: async () => {
        runs += 1;
        throw new Error('unreachable');
      },
    },
    sampleRate: 0,
    capUsd: 1,
    maxInFlight: 1,
    timeoutMs: 5000,
    record: () => undefined,
  });
  for (let i = 0; i < 50; i++) mirror.mirror(live(`s${i}`));
  await mirror.settle();
  assert.equal(runs, 0);
});
