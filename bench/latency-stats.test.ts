import { test } from 'node:test';
import assert from 'node:assert/strict';
import { percentile, summarize } from './latency-stats.ts';

test('nearest-rank percentiles of 1..100 are the rank itself', () => {
  const sorted = Array.from({ length: 100 }, (_, index) => index + 1);
  assert.equal(percentile(sorted, 50), 50);
  assert.equal(percentile(sorted, 95), 95);
  assert.equal(percentile(sorted, 99), 99);
  assert.equal(percentile(sorted, 100), 100);
});

test('summarize sorts its input and keeps the extremes', () => {
  assert.deepEqual(summarize([5, 1, 3]), { count: 3, min: 1, p50: 3, p95: 5, p99: 5, max: 5 });
});

test('an odd count has its middle sample as the median; an empty list has no figures', () => {
  assert.equal(summarize([9, 2, 7, 4, 1]).p50, 4);
  assert.ok(Number.isNaN(summarize([]).p50));
});
