import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withExample, responseBody } from '../testing/run-example.ts';
import { errorReply, rateLimited, textReply, toolReply } from '../testing/completions.ts';
import { conversation, failingTurn, okTurn } from '../testing/conversations.ts';
import type { CallMessage } from '../testing/fake-host.ts';

const task = conversation('Rename every .txt file in /data to .md', [okTurn('ls /data', 'a.txt b.txt')]);
const goodTool = (call: CallMessage) => toolReply(call.model, 'terminal', { command: 'mv /data/a.txt /data/a.md' });
const models = (calls: CallMessage[]) => calls.map((call) => call.model);

test('cost-cascade: the cheap model answers while it copes, with a bounded maxTokens', async () => {
  await withExample('cost-cascade', goodTool, async (host) => {
    responseBody(await host.request(task, 'one'));
    responseBody(await host.request(task, 'two'));
    assert.deepEqual(models(host.calls), ['qwen3.6-35b-a3b', 'qwen3.6-35b-a3b']);
    assert.ok(host.calls.every((call) => (call.options.maxTokens ?? 0) > 0 && (call.options.maxTokens ?? 0) <= 4096));
  });
});

test('cost-cascade: a malformed tool call climbs to the next model, and the climb is remembered', async () => {
  const script = (call: CallMessage) =>
    call.model === 'qwen3.6-35b-a3b'
      ? toolReply(call.model, 'terminal', '{"command": "mv /data/a.txt')
      : goodTool(call);
  await withExample('cost-cascade', script, async (host) => {
    const body = responseBody(await host.request(task, 'one'));
    assert.equal(body.model, 'glm-5.3-flash');
    assert.deepEqual(models(host.callsFor('one')), ['qwen3.6-35b-a3b', 'glm-5.3-flash']);
    responseBody(await host.request(task, 'two'));
    assert.deepEqual(models(host.callsFor('two')), ['glm-5.3-flash'], 'the next request starts on the stronger model');
    assert.ok(
      host.logs.some((log) => /climbing to glm-5.3-flash: qwen3.6-35b-a3b: malformed tool call/.test(log.message)),
    );
  });
});

test('cost-cascade: a call error climbs and is remembered; a 429 climbs for that request only', async () => {
  await withExample(
    'cost-cascade',
    (call) => (call.model === 'qwen3.6-35b-a3b' ? errorReply(502, 'upstream_error', true) : goodTool(call)),
    async (host) => {
      assert.equal(responseBody(await host.request(task, 'one')).model, 'glm-5.3-flash');
      responseBody(await host.request(task, 'two'));
      assert.deepEqual(models(host.callsFor('two')), ['glm-5.3-flash']);
    },
  );
  let first = true;
  const busyOnce = (call: CallMessage) =>
    call.model === 'qwen3.6-35b-a3b' && first ? ((first = false), rateLimited()) : goodTool(call);
  await withExample('cost-cascade', busyOnce, async (host) => {
    assert.equal(responseBody(await host.request(task, 'one')).model, 'glm-5.3-flash');
    responseBody(await host.request(task, 'two'));
    assert.deepEqual(
      models(host.callsFor('two')),
      ['qwen3.6-35b-a3b'],
      'a rate limit is not a reason to pay more later',
    );
  });
});

test('cost-cascade: repeated tool failures in the transcript and a model that gives up both climb', async () => {
  await withExample('cost-cascade', goodTool, async (host) => {
    const struggling = conversation('Build the project', [
      failingTurn('mkae'),
      failingTurn('cmkae'),
      failingTurn('nija'),
    ]);
    responseBody(await host.request(struggling, 'one'));
    assert.deepEqual(models(host.callsFor('one')), ['glm-5.3-flash']);
  });
  const script = (call: CallMessage) =>
    call.model === 'glm-5.2'
      ? goodTool(call)
      : textReply(call.model, "I'm sorry, but I am unable to complete this task.");
  await withExample('cost-cascade', script, async (host) => {
    const body = responseBody(await host.request(task, 'one'));
    assert.equal(body.model, 'glm-5.2');
    assert.deepEqual(models(host.callsFor('one')), ['qwen3.6-35b-a3b', 'glm-5.3-flash', 'glm-5.2']);
  });
});

test('cost-cascade: the strongest model failing falls back to a cheaper one instead of erroring', async () => {
  const script = (call: CallMessage) =>
    call.model === 'qwen3.6-35b-a3b'
      ? toolReply(call.model, 'no_such_tool', {})
      : call.model === 'glm-5.2'
        ? errorReply(504, 'upstream_timeout', true)
        : toolReply(call.model, 'terminal', 'not json');
  await withExample('cost-cascade', script, async (host) => {
    // qwen malformed → deepseek malformed → glm times out: the first usable-looking answer is returned.
    const body = responseBody(await host.request(task, 'one'));
    assert.equal(body.model, 'qwen3.6-35b-a3b');
    assert.deepEqual(models(host.callsFor('one')), ['qwen3.6-35b-a3b', 'glm-5.3-flash', 'glm-5.2']);
  });
});

test('cost-cascade: with no budget left it answers in plain text without calling a model', async () => {
  await withExample(
    'cost-cascade',
    goodTool,
    async (host) => {
      const body = responseBody(await host.request(task));
      assert.match(body.choices[0]?.message.content ?? '', /budget/);
      assert.equal(host.calls.length, 0);
    },
    { capUsd: 1, spentUsd: 1, remainingUsd: 0 },
  );
});
