import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lowerBoundRank, pairedBootstrapLowerBound } from './paired-bootstrap.ts';

const settings = { resamples: 10_000, confidence: 0.95, seed: 1234n };

test('the lower bound is the 500th smallest of 10,000 sums at 95%', () => {
  assert.equal(lowerBoundRank(10_000, 0.95), 500);
  assert.equal(lowerBoundRank(10_000, 0.99), 100);
  assert.equal(lowerBoundRank(20_000, 0.95), 1000);
  assert.equal(lowerBoundRank(10, 0.999), 1);
});

test('identical differences leave nothing to resample: the bound is n · d', () => {
  const result = pairedBootstrapLowerBound([2, 2, 2, 2], settings);
  assert.equal(result.lowerBound, 8);
  assert.equal(result.meanDifference, 8);
});

test('one lucky scenario among zeros does not give a positive bound', () => {
  // 26 scenarios, one +5: a resample misses it with probability (25/26)^26 ≈ 36%, far above 5%.
  const differences = new Array<number>(26).fill(0);
  differences[3] = 5;
  assert.equal(pairedBootstrapLowerBound(differences, settings).lowerBound, 0);
});

test('a broad advantage gives a positive bound', () => {
  const differences = Array.from({ length: 26 }, (_, i) => (i % 3 === 0 ? 0 : 1));
  const result = pairedBootstrapLowerBound(differences, settings);
  assert.ok(result.lowerBound > 0);
  assert.ok(Math.abs(result.meanDifference - 17) < 0.2);
});

test('the same seed gives the same bound; another seed may differ', () => {
  const differences = Array.from({ length: 26 }, (_, i) => Math.sin(i * 1.7) * 3);
  assert.deepEqual(pairedBootstrapLowerBound(differences, settings), pairedBootstrapLowerBound(differences, settings));
  const bounds = new Set(
    [1n, 2n, 3n, 4n].map((seed) => pairedBootstrapLowerBound(differences, { ...settings, seed }).lowerBound),
  );
  assert.ok(bounds.size > 1);
});

test('no scenarios is a programming error', () => {
  assert.throws(() => pairedBootstrapLowerBound([], settings), RangeError);
});
