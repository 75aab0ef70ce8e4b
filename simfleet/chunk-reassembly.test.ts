import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reassembleChunks } from './chunk-reassembly.ts';
import type { ChatCompletionChunk, ChunkDelta } from './sse.ts';

function chunk(
  delta: ChunkDelta,
  finish: ChatCompletionChunk['choices'][0]['finish_reason'] = null,
): ChatCompletionChunk {
  return {
    id: 'c',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    system_fingerprint: 'trl-sim-fleet',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  };
}

test('interleaved tool-call deltas fold by index; usage comes from the usage chunk', () => {
  const usage = {
    prompt_tokens: 1,
    completion_tokens: 2,
    total_tokens: 3,
    prompt_tokens_details: { cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
  const folded = reassembleChunks([
    chunk({ role: 'assistant', content: null }),
    chunk({ tool_calls: [{ index: 0, id: 'a', type: 'function', function: { name: 'terminal', arguments: '' } }] }),
    chunk({
      tool_calls: [{ index: 1, id: 'b', type: 'function', function: { name: 'read_file', arguments: '{"pa' } }],
    }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '{"command":"ls"}' } }] }),
    chunk({ tool_calls: [{ index: 1, function: { arguments: 'th":"x"}' } }] }),
    chunk({}, 'tool_calls'),
    { ...chunk({}), choices: [], usage },
  ]);
  assert.equal(folded.content, null);
  assert.deepEqual(
    folded.toolCalls.map((c) => [c.id, c.function.name, c.function.arguments]),
    [
      ['a', 'terminal', '{"command":"ls"}'],
      ['b', 'read_file', '{"path":"x"}'],
    ],
  );
  assert.equal(folded.finishReason, 'tool_calls');
  assert.deepEqual(folded.usage, usage);
});

test('text deltas concatenate after the empty role chunk', () => {
  const folded = reassembleChunks([
    chunk({ role: 'assistant', content: '' }),
    chunk({ content: 'he' }),
    chunk({ content: 'llo' }),
    chunk({}, 'stop'),
  ]);
  assert.equal(folded.content, 'hello');
  assert.equal(folded.usage, null);
});
