import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completionSignature, hasMalformedToolCalls, hasToolCalls, parseToolArguments } from './tool-calls.ts';
import type { ChatCompletion, ChatCompletionRequest, ToolCall } from './types.ts';

function completion(calls: Array<[string, string]> | undefined, content: string | null = null): ChatCompletion {
  const tool_calls: ToolCall[] | undefined = calls?.map(([name, args], index) => ({
    id: `c${index}`,
    type: 'function',
    function: { name, arguments: args },
  }));
  return {
    id: 'x',
    object: 'chat.completion',
    created: 0,
    model: 'm',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, tool_calls },
        finish_reason: tool_calls ? 'tool_calls' : 'stop',
      },
    ],
  };
}
const request: ChatCompletionRequest = { messages: [], tools: [{ type: 'function', function: { name: 'terminal' } }] };

test('parseToolArguments accepts JSON objects (and empty arguments) only', () => {
  const call = (args: string): ToolCall => ({ id: 'c', type: 'function', function: { name: 't', arguments: args } });
  assert.deepEqual(parseToolArguments(call('{"a":1}')), { a: 1 });
  assert.deepEqual(parseToolArguments(call('')), {});
  assert.equal(parseToolArguments(call('{"a":')), undefined);
  assert.equal(parseToolArguments(call('[1]')), undefined);
  assert.equal(parseToolArguments(call('"str"')), undefined);
});

test('hasMalformedToolCalls: bad JSON, missing names and undeclared tools', () => {
  assert.equal(hasMalformedToolCalls(completion([['terminal', '{"command":"ls"}']]), request), false);
  assert.equal(hasMalformedToolCalls(completion([['terminal', '{"command": "ls']])), true);
  assert.equal(hasMalformedToolCalls(completion([['', '{}']])), true);
  assert.equal(hasMalformedToolCalls(completion([['rm_rf', '{}']]), request), true);
  assert.equal(
    hasMalformedToolCalls(completion([['rm_rf', '{}']])),
    false,
    'without the request, names are not checked',
  );
  assert.equal(hasMalformedToolCalls(completion(undefined, 'text')), false);
  assert.equal(hasToolCalls(completion(undefined, 'text')), false);
  assert.equal(hasToolCalls(completion([['terminal', '{}']])), true);
});

test('completionSignature: same calls with reordered keys agree, different calls or texts do not', () => {
  const one = completionSignature(completion([['terminal', '{"a":1,"b":2}']]));
  assert.equal(one, completionSignature(completion([['terminal', '{ "b": 2, "a": 1 }']])));
  assert.notEqual(one, completionSignature(completion([['terminal', '{"a":2,"b":2}']])));
  assert.equal(
    completionSignature(completion(undefined, 'Done.  ')),
    completionSignature(completion(undefined, 'done.')),
  );
});
