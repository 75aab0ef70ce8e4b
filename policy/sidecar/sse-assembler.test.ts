import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SseAssembler } from './sse-assembler.ts';

test('rebuilds content and tool calls from chunks split anywhere, usage and [DONE] included', () => {
  const events = [
    { choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] },
    { choices: [{ index: 0, delta: { content: 'Let me ' } }] },
    { choices: [{ index: 0, delta: { content: 'look.' } }] },
    {
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'terminal', arguments: '' } }],
          },
        },
      ],
    },
    { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"command":' } }] } }] },
    { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"ls"}' } }] } }] },
    { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
    { choices: [], usage: { prompt_tokens: 10, completion_tokens: 5 } },
  ];
  const text = events.map((e) => `data: ${JSON.stringify(e)}\r\n\r\n`).join('') + 'data: [DONE]\n\n';
  const bytes = Buffer.from(text);
  const assembler = new SseAssembler();
  for (let i = 0; i < bytes.length; i += 7) assembler.feed(bytes.subarray(i, i + 7));
  assert.deepEqual(assembler.message(), {
    role: 'assistant',
    content: 'Let me look.',
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'terminal', arguments: '{"command":"ls"}' } }],
  });
  assert.equal(assembler.finishReason, 'tool_calls');
  assert.deepEqual(assembler.usage, { prompt_tokens: 10, completion_tokens: 5 });
  assert.equal(assembler.sawDone, true);
});

test('garbage lines and absurd indexes are skipped, never thrown', () => {
  const assembler = new SseAssembler();
  assembler.feed(
    Buffer.from(
      'data: {not json\n\n: comment\n\nevent: x\ndata: {"choices":[{"delta":{"tool_calls":[{"index":9999}]}}]}\n\n',
    ),
  );
  assert.deepEqual(assembler.message(), { role: 'assistant', content: '' });
});
