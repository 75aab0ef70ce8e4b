import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countToolErrors, countToolResults, looksLikeToolError } from './transcript.ts';
import type { ChatCompletionRequest } from './types.ts';

test('looksLikeToolError spots tracebacks, non-zero exits and missing commands, not clean output', () => {
  for (const text of [
    'Traceback (most recent call last):\n  File "x.py", line 1\nKeyError: 3',
    'bash: mkae: command not found',
    'cat: /nope: No such file or directory',
    '{"output": "", "exit_code": 2}',
    'error: could not compile `app`',
    '3 failed, 10 passed in 0.52s',
    'fatal: not a git repository',
  ])
    assert.ok(looksLikeToolError(text), text);
  for (const text of [
    '',
    'a.txt\nb.txt',
    '10 passed in 0.1s',
    '{"output": "ok", "exit_code": 0}',
    '0 errors, 0 warnings',
    'error_log.txt',
  ]) {
    assert.ok(!looksLikeToolError(text), text);
  }
});

test('countToolErrors counts failing tool results, optionally among the latest ones', () => {
  const tool = (content: string) => ({ role: 'tool' as const, tool_call_id: 'c', content });
  const request: ChatCompletionRequest = {
    messages: [
      { role: 'user', content: 'Traceback (most recent call last): in the instruction does not count' },
      tool('command not found'),
      tool('ok'),
      tool('exit code: 1'),
      tool('fine'),
    ],
  };
  assert.equal(countToolErrors(request), 2);
  assert.equal(countToolErrors(request, { lastToolMessages: 2 }), 1);
  assert.equal(countToolResults(request), 4);
  assert.equal(countToolErrors({ messages: [] }), 0);
});
