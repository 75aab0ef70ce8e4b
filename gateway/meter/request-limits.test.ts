import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultMaxTokens, requestedAnswerCount, requestedMaxTokens } from './request-limits.ts';

const length = (body: Record<string, unknown>) => {
  const result = requestedMaxTokens(body);
  assert.ok(result.ok, JSON.stringify(result));
  return result.maxTokens;
};

test('max_tokens wins, then max_completion_tokens, then 8192; null is absent', () => {
  assert.equal(defaultMaxTokens, 8192);
  assert.equal(length({}), 8192);
  assert.equal(length({ max_tokens: 300, max_completion_tokens: 900 }), 300);
  assert.equal(length({ max_completion_tokens: 900 }), 900);
  assert.equal(length({ max_tokens: null, max_completion_tokens: 900 }), 900);
  assert.equal(length({ max_tokens: null }), 8192);
  assert.equal(length({ max_tokens: 1e12 }), 1e12);
});

test('a length that is not a positive whole number is refused with the field and the fix named (issue 36)', () => {
  for (const [body, field, shown] of [
    [{ max_tokens: 0 }, 'max_tokens', 'got 0'],
    [{ max_tokens: -1 }, 'max_tokens', 'got -1'],
    [{ max_tokens: '4096' }, 'max_tokens', 'got "4096"'],
    [{ max_tokens: 99.9 }, 'max_tokens', 'got 99.9'],
    [{ max_tokens: [1] }, 'max_tokens', 'got [1]'],
    [{ max_tokens: true }, 'max_tokens', 'got true'],
    [{ max_completion_tokens: 0 }, 'max_completion_tokens', 'got 0'],
    [{ max_tokens: 0, max_completion_tokens: 900 }, 'max_tokens', 'got 0'],
    [JSON.parse('{"max_tokens":1e400}') as Record<string, unknown>, 'max_tokens', 'out of range'],
  ] as const) {
    const result = requestedMaxTokens(body);
    assert.equal(result.ok, false, JSON.stringify(body));
    if (!result.ok) {
      assert.equal(result.field, field);
      assert.ok(result.message.startsWith(`${field} must be a positive whole number`), result.message);
      assert.ok(result.message.includes(shown), result.message);
      assert.match(result.message, /omit it to ask for 8192/);
    }
  }
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
