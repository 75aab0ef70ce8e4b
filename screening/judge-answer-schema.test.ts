import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeAnswerJsonSchema, judgeAnswerSchema, judgeFlagTypes, seriousFlagTypes } from './judge-answer-schema.ts';

test('the JSON schema and the zod schema agree', () => {
  const items = judgeAnswerJsonSchema.properties.flags.items;
  assert.deepEqual(items.properties.type.enum, [...judgeFlagTypes]);
  assert.deepEqual(judgeAnswerJsonSchema.properties.verdict.enum, ['pass', 'reject']);
  // Strict mode: every property required, nothing else allowed, at both levels.
  assert.deepEqual([...judgeAnswerJsonSchema.required].sort(), Object.keys(judgeAnswerJsonSchema.properties).sort());
  assert.deepEqual([...items.required].sort(), Object.keys(items.properties).sort());
  assert.equal(judgeAnswerJsonSchema.additionalProperties, false);
  assert.equal(items.additionalProperties, false);
  const good = { flags: [{ type: 'prompt_injection', evidence: 'x', file: null }], verdict: 'reject', summary: 's' };
  assert.ok(judgeAnswerSchema.safeParse(good).success);
  assert.ok(!judgeAnswerSchema.safeParse({ ...good, verdict: 'maybe' }).success);
  assert.ok(!judgeAnswerSchema.safeParse({ ...good, flags: [{ type: 'other', evidence: 'x' }] }).success);
});

test('every flag type is serious except tool_avoidance', () => {
  assert.deepEqual(
    judgeFlagTypes.filter((type) => !seriousFlagTypes.has(type)),
    ['tool_avoidance'],
  );
});
