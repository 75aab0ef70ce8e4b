import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withExample, responseBody } from '../testing/run-example.ts';
import { rateLimited, textReply, toolReply, upstreamError } from '../testing/completions.ts';
import { conversation } from '../testing/conversations.ts';
import type { CallMessage } from '../testing/fake-host.ts';

const task = conversation('Count the lines of /data/log.txt');
const panel = ['glm-5.2', 'glm-5.3-flash', 'deepseek-v4.1-flash'];
const models = (calls: CallMessage[]) => calls.map((call) => call.model).sort();

test('parallel-pick: three models at once, one response, well-formed tool calls preferred over text', async () => {
  const script = async (call: CallMessage) => {
    await new Promise((resolve) => setTimeout(resolve, call.model === 'glm-5.2' ? 40 : 5));
    return call.model === 'glm-5.3-flash'
      ? toolReply(call.model, 'terminal', { command: 'wc -l /data/log.txt' })
      : textReply(call.model, 'You could run wc -l.');
  };
  await withExample('parallel-pick', script, async (host) => {
    const body = responseBody(await host.request(task, 'one'));
    assert.equal(body.model, 'glm-5.3-flash');
    assert.deepEqual(models(host.calls), [...panel].sort());
    assert.equal(host.messages.filter((message) => message.t === 'response' || message.t === 'error').length, 1);
    assert.equal(new Set(host.calls.map((call) => call.options.branch)).size, 3, 'each arm is labelled');
  });
});

test('parallel-pick: malformed tool calls lose, agreement beats strength, strength breaks ties', async () => {
  const wc = { command: 'wc -l /data/log.txt' };
  const cat = { command: 'cat /data/log.txt' };
  await withExample(
    'parallel-pick',
    (call) =>
      call.model === 'glm-5.2' ? toolReply(call.model, 'terminal', '{oops') : toolReply(call.model, 'terminal', cat),
    async (host) => {
      assert.equal(responseBody(await host.request(task)).model, 'glm-5.3-flash');
    },
  );
  await withExample(
    'parallel-pick',
    (call) => toolReply(call.model, 'terminal', call.model === 'glm-5.2' ? cat : wc),
    async (host) => {
      assert.equal(
        responseBody(await host.request(task)).model,
        'glm-5.3-flash',
        'two agreeing models outvote the stronger one',
      );
    },
  );
  await withExample(
    'parallel-pick',
    (call) => toolReply(call.model, 'terminal', { command: `echo ${call.model}` }),
    async (host) => {
      assert.equal(responseBody(await host.request(task)).model, 'glm-5.2');
    },
  );
});

test('parallel-pick: when every panel member fails a cheap model answers', async () => {
  await withExample(
    'parallel-pick',
    (call) =>
      call.model === 'qwen3.6-35b-a3b'
        ? textReply(call.model, 'fine')
        : call.model === 'glm-5.2'
          ? rateLimited()
          : upstreamError(),
    async (host) => {
      assert.equal(responseBody(await host.request(task)).model, 'qwen3.6-35b-a3b');
      assert.equal(host.calls.length, 4);
    },
  );
});

test('parallel-pick: the panel shrinks as the budget runs down', async () => {
  await withExample(
    'parallel-pick',
    (call) => textReply(call.model, 'ok'),
    async (host) => {
      responseBody(await host.request(task));
      assert.deepEqual(models(host.calls), ['glm-5.2', 'glm-5.3-flash']);
    },
    { capUsd: 1, spentUsd: 0.7, remainingUsd: 0.3 },
  );
  await withExample(
    'parallel-pick',
    (call) => textReply(call.model, 'ok'),
    async (host) => {
      responseBody(await host.request(task));
      assert.deepEqual(models(host.calls), ['glm-5.2']);
    },
    { capUsd: 1, spentUsd: 0.9, remainingUsd: 0.1 },
  );
});
