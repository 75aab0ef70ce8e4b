import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  countPromptTokens,
  countTokens,
  replyPrimerTokens,
  tokensPerMessage,
  truncateToTokens,
} from './token-count.ts';

test('known strings give the known o200k_base counts', () => {
  // Reference counts of OpenAI's o200k_base encoding.
  assert.equal(countTokens('hello world'), 2);
  assert.equal(countTokens('Hello, world! This is a test.'), 9);
  assert.equal(countTokens(''), 0);
});

test('prompt tokens cover roles, contents, tool calls and tool definitions', () => {
  const messages = [
    { role: 'user' as const, content: 'hello world' },
    {
      role: 'assistant' as const,
      content: null,
      tool_calls: [
        { id: 'c', type: 'function' as const, function: { name: 'terminal', arguments: '{"command":"ls"}' } },
      ],
    },
  ];
  const plain = countPromptTokens({ messages: [messages[0]!] });
  assert.equal(plain.promptTokens, tokensPerMessage + countTokens('userhello world') + replyPrimerTokens);
  assert.equal(plain.cachedTokens, 0);
  const withCall = countPromptTokens({ messages });
  assert.ok(withCall.promptTokens > plain.promptTokens + countTokens('{"command":"ls"}'));
  const tools = [{ type: 'function' as const, function: { name: 'terminal', parameters: { type: 'object' } } }];
  assert.equal(
    countPromptTokens({ messages, tools }).promptTokens,
    withCall.promptTokens + countTokens(JSON.stringify(tools)),
  );
});

test('cached tokens are the earlier messages in 64-token blocks, past two messages', () => {
  const long = 'word '.repeat(300);
  const messages = [
    { role: 'system' as const, content: long },
    { role: 'user' as const, content: long },
    { role: 'user' as const, content: 'last' },
  ];
  const { promptTokens, cachedTokens } = countPromptTokens({ messages });
  assert.equal(cachedTokens % 64, 0);
  assert.ok(cachedTokens > 500 && cachedTokens < promptTokens);
  assert.equal(countPromptTokens({ messages: messages.slice(0, 2) }).cachedTokens, 0);
});

test('truncation keeps a prefix within the token budget', () => {
  const text = 'The quick brown fox jumps over the lazy dog. Ünïcödé ✓ 日本語のテキスト '.repeat(5);
  for (const budget of [0, 1, 3, 10, 25]) {
    const cut = truncateToTokens(text, budget);
    assert.ok(countTokens(cut) <= budget);
    assert.ok(text.startsWith(cut));
  }
  assert.equal(truncateToTokens('short', 10), 'short');
});
