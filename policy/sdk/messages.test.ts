import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assistantTurnCount,
  contentText,
  firstUserText,
  lastUserText,
  systemText,
  withSystemPrompt,
} from './messages.ts';
import type { ChatCompletionRequest } from './types.ts';

const request: ChatCompletionRequest = {
  messages: [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'first task' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'terminal', arguments: '{"command":"ls"}' } }],
    },
    { role: 'tool', tool_call_id: 'c1', content: 'a.txt' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'now' },
        { type: 'image_url', image_url: { url: 'data:' } },
        { type: 'text', text: 'this' },
      ],
    },
  ],
};

test('message text handles strings, part arrays and missing content', () => {
  assert.equal(contentText('plain'), 'plain');
  assert.equal(
    contentText([
      { type: 'text', text: 'a' },
      { type: 'image_url', image_url: { url: 'x' } },
      { type: 'text', text: 'b' },
    ]),
    'a\nb',
  );
  assert.equal(contentText(null), '');
  assert.equal(contentText(undefined), '');
});

test('lastUserText, firstUserText, systemText and assistantTurnCount read the conversation', () => {
  assert.equal(lastUserText(request), 'now\nthis');
  assert.equal(firstUserText(request), 'first task');
  assert.equal(systemText(request), 'be brief');
  assert.equal(assistantTurnCount(request), 1);
  assert.equal(lastUserText({ messages: [] }), '');
  assert.equal(lastUserText({} as ChatCompletionRequest), '', 'a body without messages does not throw');
});

test('withSystemPrompt returns a new request and leaves the original alone', () => {
  const appended = withSystemPrompt(request, 'check your work');
  assert.equal(appended.messages[0]?.content, 'be brief\n\ncheck your work');
  assert.equal(request.messages[0]?.content, 'be brief');
  assert.equal(withSystemPrompt(request, 'first', 'prepend').messages[0]?.content, 'first\n\nbe brief');
  const none = withSystemPrompt({ messages: [{ role: 'user', content: 'hi' }] }, 'sys');
  assert.deepEqual(
    none.messages.map((message) => message.role),
    ['system', 'user'],
  );
});
