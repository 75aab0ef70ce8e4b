import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeWords, wordTokens, wordsWithLines } from './word-tokens.ts';

test('case, punctuation, quoting and wrapping do not change the normal form', () => {
  assert.equal(normalizeWords('  /App/Report.JSON\n'), 'app report json');
  assert.equal(normalizeWords('Sales report\n  from a "messy"   CSV'), normalizeWords('sales REPORT from a messy csv'));
  assert.deepEqual(wordTokens('ORD-10186, café_2'), ['ord', '10186', 'café', '2']);
});

test('words carry the line they start on', () => {
  const located = wordsWithLines('one two\n\nthree\nfour', 10);
  assert.deepEqual(located.words, ['one', 'two', 'three', 'four']);
  assert.deepEqual(located.lines, [10, 10, 12, 13]);
});

test('an escape sequence is a separator behind any number of backslashes, so encoding once more changes nothing', () => {
  const source = 'stdin="15m\\n\\n1m30s\\n" path C:\\\\new';
  assert.deepEqual(wordTokens(source), ['stdin', '15m', '1m30s', 'path', 'c', 'ew']);
  assert.deepEqual(wordTokens(JSON.stringify(source)), wordTokens(source));
  assert.deepEqual(wordTokens(JSON.stringify(JSON.stringify(source))), wordTokens(source));
  assert.deepEqual(wordTokens('caf\\u00e9 ok'), ['caf', 'ok']);
  assert.deepEqual(wordsWithLines('a\\nb\nc').lines, [1, 1, 2]);
});
