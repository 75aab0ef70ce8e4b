import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withExample, responseBody } from '../testing/run-example.ts';
import { badRequest, errorReply, rateLimited, textReply, upstreamError } from '../testing/completions.ts';
import { conversation } from '../testing/conversations.ts';
import type { CallMessage } from '../testing/fake-host.ts';

const task = conversation('Write a haiku about pipes to /tmp/haiku.txt');
const models = (calls: CallMessage[]) => calls.map((call) => call.model);

test('fallback-chain: a 429 moves to the next model, which then leads for a few requests', async () => {
  await withExample(
    'fallback-chain',
    (call) => (call.model === 'glm-5.2' && call.requestId === 'one' ? rateLimited() : textReply(call.model, 'ok')),
    async (host) => {
      assert.equal(responseBody(await host.request(task, 'one')).model, 'kimi-k3');
      assert.deepEqual(models(host.callsFor('one')), ['glm-5.2', 'kimi-k3']);
      for (const id of ['two', 'three', 'four']) responseBody(await host.request(task, id));
      assert.deepEqual(models(host.callsFor('two')), ['kimi-k3'], 'the rate-limited model rests');
      assert.deepEqual(models(host.callsFor('four')), ['kimi-k3']);
      responseBody(await host.request(task, 'five'));
      assert.deepEqual(models(host.callsFor('five')), ['glm-5.2'], 'and leads again after its rest');
    },
  );
});

test('fallback-chain: 5xx errors walk the chain; every model failing passes the last error on', async () => {
  await withExample(
    'fallback-chain',
    (call) => (call.model === 'qwen3.6-35b-a3b' ? textReply(call.model, 'ok') : upstreamError()),
    async (host) => {
      assert.equal(responseBody(await host.request(task, 'one')).model, 'qwen3.6-35b-a3b');
      assert.deepEqual(models(host.calls), ['glm-5.2', 'kimi-k3', 'glm-5.3-flash', 'qwen3.6-35b-a3b']);
    },
  );
  await withExample(
    'fallback-chain',
    () => errorReply(504, 'upstream_timeout', true, 'too slow'),
    async (host) => {
      const outcome = await host.request(task);
      assert.equal(outcome.t, 'error');
      assert.match((outcome as { message: string }).message, /too slow/);
      assert.equal(host.calls.length, 5);
    },
  );
});

test('fallback-chain: a non-retryable error stops the chain at once', async () => {
  await withExample(
    'fallback-chain',
    () => badRequest(),
    async (host) => {
      const outcome = await host.request(task);
      assert.equal(outcome.t, 'error');
      assert.match((outcome as { message: string }).message, /invalid_request/);
      assert.deepEqual(models(host.calls), ['glm-5.2']);
    },
  );
});

test('fallback-chain: a context overflow jumps to a model with a larger window; a spent budget ends politely', async () => {
  await withExample(
    'fallback-chain',
    (call) =>
      call.model === 'qwen3.8-27b' ? textReply(call.model, 'ok') : errorReply(400, 'context_length_exceeded', false),
    async (host) => {
      assert.equal(responseBody(await host.request(task)).model, 'qwen3.8-27b');
      assert.deepEqual(models(host.calls), ['glm-5.2', 'kimi-k3', 'qwen3.8-27b'], 'each larger window in chain order');
    },
  );
  await withExample(
    'fallback-chain',
    () => errorReply(402, 'cap', false),
    async (host) => {
      assert.match(responseBody(await host.request(task)).choices[0]?.message.content ?? '', /budget/);
      assert.deepEqual(models(host.calls), ['glm-5.2']);
    },
  );
});
