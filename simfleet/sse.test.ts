import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reassembleChunks } from './chunk-reassembly.ts';
import type { ChatCompletion } from './simulate-completion.ts';
import { completionChunks, splitPieces, sseDone, sseEvent } from './sse.ts';

function completion(
  message: ChatCompletion['choices'][0]['message'],
  finish: ChatCompletion['choices'][0]['finish_reason'],
): ChatCompletion {
  return {
    id: 'chatcmpl-x',
    object: 'chat.completion',
    created: 1,
    model: 'glm-5.2',
    system_fingerprint: 'trl-sim-fleet',
    choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
    usage: {
      prompt_tokens: 10,
      completion_tokens: 5,
      total_tokens: 15,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    },
  };
}

test('text streams as a role chunk, content pieces and a finish chunk, usage last when asked', () => {
  const text = 'héllo 🌍 '.repeat(30);
  const chunks = completionChunks(completion({ role: 'assistant', content: text, refusal: null }, 'stop'), true);
  assert.deepEqual(chunks[0]!.choices[0]!.delta, { role: 'assistant', content: '' });
  const last = chunks[chunks.length - 1]!;
  assert.deepEqual(last.choices, []);
  assert.equal(last.usage?.total_tokens, 15);
  assert.ok(chunks.slice(0, -1).every((c) => c.usage === null));
  const folded = reassembleChunks(chunks);
  assert.equal(folded.content, text);
  assert.equal(folded.finishReason, 'stop');
  assert.ok(
    completionChunks(completion({ role: 'assistant', content: 'x', refusal: null }, 'stop'), false).every(
      (c) => !('usage' in c),
    ),
  );
});

test('a tool call streams id, type and name first, then argument pieces', () => {
  const call = {
    id: 'call_1',
    type: 'function' as const,
    function: { name: 'terminal', arguments: JSON.stringify({ command: 'echo '.repeat(40) }) },
  };
  const chunks = completionChunks(
    completion({ role: 'assistant', content: null, refusal: null, tool_calls: [call] }, 'tool_calls'),
    false,
  );
  assert.deepEqual(chunks[1]!.choices[0]!.delta.tool_calls, [
    { index: 0, id: 'call_1', type: 'function', function: { name: 'terminal', arguments: '' } },
  ]);
  assert.ok(chunks.slice(2, -1).every((c) => c.choices[0]!.delta.tool_calls?.[0]?.id === undefined));
  const folded = reassembleChunks(chunks);
  assert.deepEqual(folded.toolCalls, [call]);
  assert.equal(folded.content, null);
  assert.equal(folded.finishReason, 'tool_calls');
});

test('pieces never split a surrogate pair, and SSE framing is data lines', () => {
  assert.deepEqual(splitPieces('a🌍b🌍', 2), ['a🌍', 'b🌍']);
  assert.equal(sseEvent({ a: 1 }), 'data: {"a":1}\n\n');
  assert.equal(sseDone, 'data: [DONE]\n\n');
});
