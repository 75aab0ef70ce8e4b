import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultMaxTokens, requestedAnswerCount, requestedMaxTokens } from './request-limits.ts';

test('max_tokens wins, then max_completion_tokens, then 8192', () => {
  assert.equal(defaultMaxTokens, 8192);
  assert.equal(requestedMaxTokens({}), 8192);
  assert.equal(requestedMaxTokens({ max_tokens: 300, max_completion_tokens: 900 }), 300);
  assert.equal(requestedMaxTokens({ max_completion_tokens: 900 }), 900);
  // zero and null are unset, as in the live rule's `or` chain
  assert.equal(requestedMaxTokens({ max_tokens: 0, max_completion_tokens: 900 }), 900);
  assert.equal(requestedMaxTokens({ max_tokens: null }), 8192);
});

test('lengths that are not whole numbers ≥ 1 count as 8192; fractions are floored; huge ones stay huge', () => {
  assert.equal(requestedMaxTokens({ max_tokens: 'lots' }), 8192);
  assert.equal(requestedMaxTokens({ max_tokens: -5 }), 8192);
  assert.equal(requestedMaxTokens({ max_tokens: [1] }), 8192);
  assert.equal(requestedMaxTokens({ max_tokens: 99.9 }), 99);
  assert.equal(requestedMaxTokens({ max_tokens: '120' }), 120);
  assert.equal(requestedMaxTokens({ max_tokens: 1e12 }), 1e12);
  assert.equal(requestedMaxTokens(JSON.parse('{"max_tokens":1e400}') as Record<string, unknown>), Infinity);
});

test('n defaults to one answer and must be a whole number ≥ 1', () => {
  assert.deepEqual(requestedAnswerCount({}), { ok: true, answerCount: 1 });
  assert.deepEqual(requestedAnswerCount({ n: 4 }), { ok: true, answerCount: 4 });
  for (const n of [0, -1, 1.5, '2', true]) {
    const result = requestedAnswerCount({ n });
    assert.equal(result.ok, false, `n = ${JSON.stringify(n)}`);
    if (!result.ok) assert.match(result.message, /whole number/);
  }
});
