import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HeadTailLines } from './head-tail-lines.ts';

test('keeps every line while they fit', () => {
  const log = new HeadTailLines(3, 2);
  for (const line of ['a', 'b', 'c', 'd', 'e']) log.push(line);
  assert.deepEqual(log.lines(), ['a', 'b', 'c', 'd', 'e']);
  assert.equal(log.cutLines, 0);
});

test('keeps the head and the tail and says how much fell between (issue 36: policy.log kept only its head)', () => {
  const log = new HeadTailLines(2, 3);
  for (let i = 1; i <= 10_000; i++) log.push(`line ${i}`);
  assert.deepEqual(log.lines(), [
    'line 1',
    'line 2',
    '[… 9995 lines cut here: the log keeps its first 2 and last 3 lines …]',
    'line 9998',
    'line 9999',
    'line 10000',
  ]);
  assert.equal(log.cutLines, 9995);
});
