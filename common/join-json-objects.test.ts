import { test } from 'node:test';
import assert from 'node:assert/strict';
import { joinJsonObjects } from './join-json-objects.ts';

test('two objects become one with the members of both, in order', () => {
  const joined = joinJsonObjects(
    JSON.stringify({ messages: [{ role: 'user', content: '{"x":}' }] }),
    JSON.stringify({ max_tokens: 64, stream: false }),
  );
  assert.equal(joined, '{"messages":[{"role":"user","content":"{\\"x\\":}"}],"max_tokens":64,"stream":false}');
  assert.deepEqual(JSON.parse(joined), {
    messages: [{ role: 'user', content: '{"x":}' }],
    max_tokens: 64,
    stream: false,
  });
});

test('an empty object on either side leaves the other as it is', () => {
  assert.equal(joinJsonObjects('{}', '{"a":1}'), '{"a":1}');
  assert.equal(joinJsonObjects('{"a":1}', '{}'), '{"a":1}');
  assert.equal(joinJsonObjects('{}', '{}'), '{}');
});
