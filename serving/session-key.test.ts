import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sessionKey } from './session-key.ts';

const opening = [
  { role: 'system', content: 'You are an agent.' },
  { role: 'user', content: 'Rename the files.' },
];

test('later turns of a conversation keep the key of its opening', () => {
  const later = [
    ...opening,
    { role: 'assistant', content: 'ok' },
    { role: 'tool', content: 'a.txt' },
    { role: 'user', content: 'and now?' },
  ];
  assert.equal(sessionKey(later), sessionKey(opening));
});

test('another task or another system prompt is another conversation', () => {
  assert.notEqual(sessionKey([opening[0], { role: 'user', content: 'Build the project.' }]), sessionKey(opening));
  assert.notEqual(sessionKey([{ role: 'system', content: 'Be brief.' }, opening[1]]), sessionKey(opening));
});

test('text parts count as their text; a conversation without a system message still has a key', () => {
  assert.equal(
    sessionKey([opening[0], { role: 'user', content: [{ type: 'text', text: 'Rename the files.' }] }]),
    sessionKey(opening),
  );
  assert.match(sessionKey([{ role: 'user', content: 'hi' }]), /^c-[0-9a-f]{16}$/);
});
