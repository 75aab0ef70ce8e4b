import { test } from 'node:test';
import assert from 'node:assert/strict';
import { joinTurns, toolsOffered } from './joined-turns.ts';
import { conversationMessages, trajectoryRecord, type ScenarioTrajectory } from './trajectory-formats.ts';

// Two turns as the policy host and the gateway log them: a tool call answered by kimi-k3 (after a
// refused try of glm-5.2), then a final answer from two models (an ensemble).
const toolCall = { id: 'call_1', type: 'function', function: { name: 'terminal', arguments: '{"command":"ls /app"}' } };
const turnsJsonl = [
  {
    turn: 1,
    requestId: 'req-1',
    latencyMs: 900,
    newMessages: [
      { role: 'system', content: 'You are an agent.' },
      { role: 'user', content: 'List /app.' },
    ],
    response: { role: 'assistant', content: null, tool_calls: [toolCall] },
  },
  {
    turn: 2,
    requestId: 'req-2',
    latencyMs: 300,
    newMessages: [
      { role: 'assistant', content: null, tool_calls: [toolCall] },
      { role: 'tool', tool_call_id: 'call_1', content: 'data\nreport.json' },
    ],
    response: { role: 'assistant', content: 'Done.' },
  },
]
  .map((row) => JSON.stringify(row))
  .join('\n');
const callsJsonl = [
  {
    time: '2026-12-01T10:00:00.000Z',
    phase: 'start',
    callId: 'c0',
    requestId: 'req-1',
    model: 'glm-5.2',
    request: { tools: [{ type: 'function', function: { name: 'terminal' } }] },
  },
  {
    time: '2026-12-01T10:00:00.010Z',
    phase: 'refused',
    callId: 'c0',
    requestId: 'req-1',
    model: 'glm-5.2',
    status: 'refused',
    errorType: 'cap',
    costUsd: 0,
  },
  { time: '2026-12-01T10:00:00.100Z', phase: 'start', callId: 'c1', requestId: 'req-1', model: 'kimi-k3' },
  {
    time: '2026-12-01T10:00:00.900Z',
    phase: 'end',
    callId: 'c1',
    requestId: 'req-1',
    model: 'kimi-k3',
    status: 'ok',
    promptTokens: 100,
    cachedPromptTokens: 0,
    completionTokens: 20,
    costUsd: 0.002,
    latencyMs: 800,
  },
  { time: '2026-12-01T10:00:01.000Z', phase: 'start', callId: 'c2', requestId: 'req-2', model: 'glm-5.3-flash' },
  {
    time: '2026-12-01T10:00:01.200Z',
    phase: 'end',
    callId: 'c2',
    requestId: 'req-2',
    model: 'glm-5.3-flash',
    status: 'ok',
    promptTokens: 150,
    cachedPromptTokens: 100,
    completionTokens: 5,
    costUsd: 0.0001,
    latencyMs: 200,
  },
  {
    time: '2026-12-01T10:00:01.250Z',
    phase: 'end',
    callId: 'c3',
    requestId: 'req-2',
    model: 'qwen3.8-27b',
    status: 'ok',
    promptTokens: 150,
    cachedPromptTokens: 0,
    completionTokens: 4,
    costUsd: 0.0002,
    latencyMs: 240,
  },
  '{"cut line',
]
  .map((row) => (typeof row === 'string' ? row : JSON.stringify(row)))
  .join('\n');

function trajectory(): ScenarioTrajectory {
  return {
    context: {
      workflowId: 'evaluate-x',
      submissionId: 'x',
      packHash: 'abc',
      agent: 'hermes',
      agentVersion: 'hermes-agent 0.19.0',
      scenario: 'csv-sales-report',
      status: 'completed',
      testsPassed: 9,
      testsTotal: 11,
      costUsd: 0.0023,
      tools: toolsOffered(callsJsonl),
    },
    turns: joinTurns(turnsJsonl, callsJsonl),
  };
}

test('turns join their model calls by request id, refusals included, cut lines skipped', () => {
  const turns = joinTurns(turnsJsonl, callsJsonl);
  assert.deepEqual(
    turns.map((t) => t.calls.map((c) => `${c.model}:${c.status}`)),
    [
      ['glm-5.2:refused', 'kimi-k3:ok'],
      ['glm-5.3-flash:ok', 'qwen3.8-27b:ok'],
    ],
  );
  assert.equal(turns[0]!.calls[1]!.startedAt, '2026-12-01T10:00:00.100Z');
  assert.deepEqual(
    conversationMessages(turns).map((m) => m.role),
    ['system', 'user', 'assistant', 'tool', 'assistant'],
  );
});

test('ATIF: system and user steps, agent steps with tool calls, observations, models and metrics', () => {
  const record = trajectoryRecord('atif', trajectory()) as {
    schema_version: string;
    session_id: string;
    agent: { name: string; version: string };
    steps: Record<string, unknown>[];
    final_metrics: Record<string, number>;
  };
  assert.equal(record.schema_version, 'ATIF-v1.4');
  assert.equal(record.session_id, 'evaluate-x/csv-sales-report');
  assert.deepEqual(record.agent.name, 'hermes');
  assert.deepEqual(
    record.steps.map((s) => [s.step_id, s.source]),
    [
      [1, 'system'],
      [2, 'user'],
      [3, 'agent'],
      [4, 'agent'],
    ],
  );
  const first = record.steps[2]!;
  assert.equal(first.model_name, 'kimi-k3');
  assert.deepEqual(first.tool_calls, [
    { tool_call_id: 'call_1', function_name: 'terminal', arguments: { command: 'ls /app' } },
  ]);
  assert.deepEqual(first.observation, { results: [{ source_call_id: 'call_1', content: 'data\nreport.json' }] });
  assert.deepEqual(first.metrics, { prompt_tokens: 100, completion_tokens: 20, cached_tokens: 0, cost_usd: 0.002 });
  assert.equal(first.timestamp, '2026-12-01T10:00:00.000Z');
  const last = record.steps[3]!;
  assert.equal(last.message, 'Done.');
  assert.equal(last.model_name, 'glm-5.3-flash+qwen3.8-27b');
  assert.equal((last.extra as { model_calls: unknown[] }).model_calls.length, 2);
  assert.deepEqual(record.final_metrics, {
    total_prompt_tokens: 400,
    total_completion_tokens: 29,
    total_cached_tokens: 100,
    total_cost_usd: 0.0023,
    total_steps: 4,
  });
});

test('ShareGPT: system apart, human / function_call / observation / gpt in order, tools as JSON text', () => {
  const record = trajectoryRecord('sharegpt', trajectory()) as {
    system: string;
    tools: string;
    conversations: { from: string; value: string }[];
    metadata: { tests_passed: number; turns: { models: string[] }[] };
  };
  assert.equal(record.system, 'You are an agent.');
  assert.deepEqual(
    record.conversations.map((c) => c.from),
    ['human', 'function_call', 'observation', 'gpt'],
  );
  assert.deepEqual(JSON.parse(record.conversations[1]!.value), { name: 'terminal', arguments: { command: 'ls /app' } });
  assert.deepEqual(JSON.parse(record.tools), [{ type: 'function', function: { name: 'terminal' } }]);
  assert.equal(record.metadata.tests_passed, 9);
  assert.deepEqual(
    record.metadata.turns.map((t) => t.models),
    [
      ['glm-5.2', 'kimi-k3'],
      ['glm-5.3-flash', 'qwen3.8-27b'],
    ],
  );
});

test('jsonl: lossless messages and every turn with its model calls', () => {
  const record = trajectoryRecord('jsonl', trajectory()) as {
    messages: unknown[];
    turns: { model_calls: { model: string; cost_usd: number }[] }[];
  };
  assert.equal(record.messages.length, 5);
  assert.deepEqual(
    record.turns[1]!.model_calls.map((c) => [c.model, c.cost_usd]),
    [
      ['glm-5.3-flash', 0.0001],
      ['qwen3.8-27b', 0.0002],
    ],
  );
});
