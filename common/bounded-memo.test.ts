import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedMemo } from './bounded-memo.ts';

test('computes a key once and answers it from memory after', () => {
  const seen: string[] = [];
  const memo = new BoundedMemo((key) => (seen.push(key), key.length), { maxChars: 100, maxEntryChars: 50 });
  assert.equal(memo.get('abc'), 3);
  assert.equal(memo.get('abc'), 3);
  assert.equal(memo.get('de'), 2);
  assert.deepEqual(seen, ['abc', 'de']);
  assert.deepEqual(memo.size(), { entries: 2, chars: 5 });
});

test('holds at most maxChars of keys, dropping the least recently used first', () => {
  const seen: string[] = [];
  const memo = new BoundedMemo((key) => (seen.push(key), key), { maxChars: 10, maxEntryChars: 10 });
  memo.get('aaaa');
  memo.get('bbbb');
  memo.get('aaaa'); // now the most recent: bbbb goes first
  memo.get('cccc');
  assert.deepEqual(memo.size(), { entries: 2, chars: 8 });
  memo.get('aaaa');
  memo.get('bbbb');
  assert.deepEqual(seen, ['aaaa', 'bbbb', 'cccc', 'bbbb']);
});

test('a key over the entry bound is computed every time and never kept', () => {
  let calls = 0;
  const memo = new BoundedMemo(() => ++calls, { maxChars: 1000, maxEntryChars: 8 });
  const long = 'x'.repeat(9);
  assert.equal(memo.get(long), 1);
  assert.equal(memo.get(long), 2);
  assert.deepEqual(memo.size(), { entries: 0, chars: 0 });
});

test('any number of distinct keys stays within the bound', () => {
  const memo = new BoundedMemo((key) => key.length, { maxChars: 1000, maxEntryChars: 100 });
  for (let i = 0; i < 10_000; i++) memo.get(`key-${i}-${'y'.repeat(i % 90)}`);
  assert.ok(memo.size().chars <= 1000, JSON.stringify(memo.size()));
});
