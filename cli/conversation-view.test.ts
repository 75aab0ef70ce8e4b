import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderConversation, truncateMiddle } from './conversation-view.ts';

const turns = [
  {
    turn: 1,
    requestId: 'req-1',
    latencyMs: 712,
    newMessages: [
      { role: 'system', content: 'You are Hermes.' },
      { role: 'user', content: 'Write /app/report.json' },
    ],
    response: {
      role: 'assistant',
      content: null,
      tool_calls: [{ function: { name: 'terminal', arguments: '{"command":"ls /app"}' } }],
    },
  },
  {
    turn: 2,
    requestId: 'req-2',
    latencyMs: 119,
    newMessages: [
      { role: 'assistant', content: '' },
      { role: 'tool', name: 'terminal', content: `{"output": "${'x'.repeat(5000)}"}` },
    ],
    response: { role: 'assistant', content: 'Done.' },
  },
]
  .map((t) => JSON.stringify(t))
  .join('\n');
const calls =
  [
    { phase: 'start', requestId: 'req-1', model: 'qwen-a' },
    { phase: 'end', requestId: 'req-1', model: 'qwen-a', status: 'ok', costUsd: 0.0012, latencyMs: 700 },
    { phase: 'end', requestId: 'req-2', model: 'glm-b', status: 'ok', costUsd: 0.0003, latencyMs: 100 },
  ]
    .map((c) => JSON.stringify(c))
    .join('\n') + '\n{"phase":"end","cut';

test('each turn names who answered, what it cost, the tool calls and their (truncated) output', () => {
  const text = renderConversation(turns, calls, { maxChars: 200 });
  assert.match(text, /turn 1 \(req-1\) · 712 ms · \$0\.0012 · qwen-a 700 ms/);
  assert.match(text, /system: \[15 chars\]/);
  assert.match(text, /→ terminal\(\{"command":"ls \/app"\}\)/);
  assert.match(text, /turn 2 \(req-2\) · 119 ms · \$0\.0003 · glm-b 100 ms/);
  assert.match(text, /tool output \(terminal\):\n {4}\{"output": "x+ … \[\d+ chars omitted\] … x+"\}/);
  assert.match(text, /assistant:\n {4}Done\./);
  assert.match(text, /2 turn\(s\), 2 model call\(s\), \$0\.0015$/);
});

test('truncateMiddle keeps both ends', () => {
  assert.equal(truncateMiddle('short', 10), 'short');
  const cut = truncateMiddle('a'.repeat(100) + 'b'.repeat(100), 80);
  assert.ok(cut.startsWith('aaa') && cut.endsWith('bbb') && cut.length < 120);
});
