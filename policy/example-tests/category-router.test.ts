import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withExample, responseBody } from '../testing/run-example.ts';
import { textReply, toolReply, upstreamError } from '../testing/completions.ts';
import { conversation, okTurn } from '../testing/conversations.ts';
import type { CallMessage } from '../testing/fake-host.ts';

const sqlTask = conversation(
  'The SQLite database /data/orders.db has tables orders and customers. Write a SQL query that returns the top 5 customers by revenue and save the query results to /out/top.csv.',
  [okTurn('sqlite3 /data/orders.db .schema', 'CREATE TABLE orders (id INTEGER, customer_id INTEGER, amount REAL);')],
);
const debuggingTask = conversation(
  'The inventory service crashes with a KeyError traceback when an item is out of stock. Fix the bug in inventory.py so the failing unit tests pass.',
  [okTurn('python -m pytest', '2 failed, 10 passed')],
);
const csvTask = conversation(
  'Clean the CSV file /data/sales.csv: deduplicate rows, then write a summary report with one row per region.',
);
const vagueTask = conversation('Do the thing described in the notes.');

const toolAnswer = (call: CallMessage) => toolReply(call.model, 'terminal', { command: 'ls' });

function systemPrompt(call: CallMessage | undefined): string {
  const messages = (call?.body as { messages: { role: string; content: string }[] }).messages;
  return messages.find((message) => message.role === 'system')?.content ?? '';
}

test('category-router: an SQL task and a debugging task go to different models', async () => {
  await withExample('category-router', toolAnswer, async (host) => {
    assert.equal(responseBody(await host.request(sqlTask, 'sql')).model, 'glm-5.3-flash');
    assert.equal(responseBody(await host.request(debuggingTask, 'debug')).model, 'glm-5.2');
    assert.equal(responseBody(await host.request(csvTask, 'csv')).model, 'kimi-k3');
    assert.equal(
      responseBody(await host.request(vagueTask, 'vague')).model,
      'glm-5.2',
      'no evidence: the default model',
    );
    assert.match(systemPrompt(host.callsFor('sql')[0]), /schema/, 'a category hint is added to the system prompt');
    assert.match(systemPrompt(host.callsFor('sql')[0]), /^You are a coding agent/, "the agent's own prompt is kept");
    assert.equal(
      systemPrompt(host.callsFor('vague')[0]),
      'You are a coding agent working in a Linux container. Use the tools to complete the task.',
    );
  });
});

test('category-router: the category stays with the task as the conversation moves on', async () => {
  await withExample('category-router', toolAnswer, async (host) => {
    responseBody(await host.request(sqlTask, 'one'));
    // Later turns talk about files and CSV; the task is still the SQL one.
    const later = conversation(JSON.parse(JSON.stringify(sqlTask.messages[1])).content, [
      okTurn('head /out/top.csv', 'customer,revenue\n1,20'),
      okTurn('wc -l /out/top.csv', '6 /out/top.csv'),
    ]);
    responseBody(await host.request(later, 'two'));
    assert.equal(host.callsFor('two')[0]?.model, 'glm-5.3-flash');
  });
});

test('category-router: a failing routed model falls back to the default, then the cheapest', async () => {
  await withExample(
    'category-router',
    (call) => (call.model === 'glm-5.3-flash' ? upstreamError() : textReply(call.model, 'ok')),
    async (host) => {
      assert.equal(responseBody(await host.request(sqlTask)).model, 'glm-5.2');
      assert.deepEqual(
        host.calls.map((call) => call.model),
        ['glm-5.3-flash', 'glm-5.2'],
      );
    },
  );
  await withExample(
    'category-router',
    (call) => (call.model === 'qwen3.6-35b-a3b' ? textReply(call.model, 'ok') : upstreamError()),
    async (host) => {
      assert.equal(responseBody(await host.request(debuggingTask)).model, 'qwen3.6-35b-a3b');
    },
  );
});
