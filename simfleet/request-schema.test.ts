import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contentText, parseChatRequest, requestedMaxTokens } from './request-schema.ts';

const minimal = { model: 'glm-5.2', messages: [{ role: 'user', content: 'hi' }] };

test('a full OpenAI request with extra fields parses', () => {
  const result = parseChatRequest({
    ...minimal,
    messages: [
      { role: 'system', content: 'be brief' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'run ls' },
          { type: 'image_url', image_url: { url: 'data:,' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'terminal', arguments: '{"command":"ls"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'a b' },
    ],
    tools: [
      {
        type: 'function',
        function: { name: 'terminal', parameters: { type: 'object', properties: { command: { type: 'string' } } } },
      },
    ],
    tool_choice: { type: 'function', function: { name: 'terminal' } },
    max_completion_tokens: 100,
    max_tokens: 5,
    temperature: 0.2,
    seed: 7,
    stream: true,
    stream_options: { include_usage: true },
    response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' } } },
    parallel_tool_calls: false,
    reasoning_effort: 'low',
  });
  assert.ok(result.ok);
  assert.equal(requestedMaxTokens(result.request), 100);
});

test('a bad field is named in the error', () => {
  const cases: [unknown, string][] = [
    [{ messages: minimal.messages }, 'model'],
    [{ ...minimal, messages: [{ role: 'robot', content: 'x' }] }, 'messages[0].role'],
    [{ ...minimal, messages: [{ role: 'user', content: 5 }] }, 'messages[0].content'],
    [{ ...minimal, messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].tool_call_id'],
    [{ ...minimal, max_tokens: -1 }, 'max_tokens'],
    [{ ...minimal, temperature: 3 }, 'temperature'],
    [{ ...minimal, tools: [{ type: 'function', function: { name: 'has space' } }] }, 'tools[0].function.name'],
    [{ ...minimal, tool_choice: { type: 'function', function: { name: 'missing' } } }, 'tool_choice'],
    [{ ...minimal, response_format: { type: 'yaml' } }, 'response_format.type'],
  ];
  for (const [body, param] of cases) {
    const result = parseChatRequest(body);
    assert.ok(!result.ok, `expected ${param} to be refused`);
    assert.equal(result.error.status, 400);
    assert.equal(result.error.param, param);
    assert.match(result.error.message, new RegExp(param.replace(/[[\].]/g, '\\$&')));
    assert.equal(result.error.toBody().error.type, 'invalid_request_error');
  }
  assert.ok(!parseChatRequest([1]).ok);
});

test('content text joins text parts and ignores others', () => {
  assert.equal(contentText([{ type: 'text', text: 'a' }, { type: 'image_url' }, { type: 'text', text: 'b' }]), 'ab');
  assert.equal(contentText(null), '');
  assert.equal(contentText('x'), 'x');
});
