import { test } from 'node:test';
import assert from 'node:assert/strict';
import { distinctiveWordCount, isCommonNumber } from './generic-vocabulary.ts';

test('distinctive words are the different non-generic ones', () => {
  assert.equal(distinctiveWordCount(['write', 'a', 'python', '3', 'standard', 'library', 'only', 'solution']), 0);
  assert.equal(distinctiveWordCount(['the', 'messy', 'csv', 'sales', 'messy']), 2);
  assert.equal(distinctiveWordCount(['retry', 'the', 'model', 'on', 'rate', 'limit']), 0);
});

test('round numbers, powers of two and well-known constants are common', () => {
  for (const digits of ['100000', '65536', '86400', '30000']) assert.equal(isCommonNumber(digits), true, digits);
  for (const digits of ['3579620', '10186', '1200878']) assert.equal(isCommonNumber(digits), false, digits);
});
