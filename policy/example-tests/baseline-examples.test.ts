import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withExample, responseBody } from '../testing/run-example.ts';
import { rateLimited, textReply } from '../testing/completions.ts';
import { conversation } from '../testing/conversations.ts';
import type { CallMessage } from '../testing/fake-host.ts';

const task = conversation('List the files in /data');

test('single-model: every request goes to kimi-k3 unchanged', async () => {
  await withExample(
    'single-model',
    (call) => textReply(call.model, 'ok'),
    async (host) => {
      assert.equal(responseBody(await host.request(task)).model, 'kimi-k3');
      assert.deepEqual(host.calls[0]?.body, task);
    },
  );
});

test('cheapest-model: deepseek-v4.1-flash answers, retried once after a 429, and a spent budget ends politely', async () => {
  let first = true;
  const busyOnce = (call: CallMessage) => (first ? ((first = false), rateLimited()) : textReply(call.model, 'ok'));
  await withExample('cheapest-model', busyOnce, async (host) => {
    assert.equal(responseBody(await host.request(task)).model, 'deepseek-v4.1-flash');
    assert.deepEqual(
      host.calls.map((call) => [call.model, call.options.branch]),
      [
        ['deepseek-v4.1-flash', undefined],
        ['deepseek-v4.1-flash', 'retry'],
      ],
    );
  });
  await withExample(
    'cheapest-model',
    (call) => textReply(call.model, 'ok'),
    async (host) => {
      assert.match(responseBody(await host.request(task)).choices[0]?.message.content ?? '', /budget/);
      assert.equal(host.calls.length, 0);
    },
    { capUsd: 1, spentUsd: 1, remainingUsd: 0 },
  );
});
