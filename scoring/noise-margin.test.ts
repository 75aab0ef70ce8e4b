import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { noiseMarginFraction } from './noise-margin.ts';

const close = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} ≠ ${expected}`);

test('δ(s) is the full 3% up to s = 0.70', () => {
  close(noiseMarginFraction(0), 0.03);
  close(noiseMarginFraction(0.5), 0.03);
  close(noiseMarginFraction(0.7), 0.03);
});

test('δ(s) narrows linearly to 0 at s = 1 (hand-worked: 0.03 × 0.15 / 0.30 = 0.015 at s = 0.85)', () => {
  close(noiseMarginFraction(0.85), 0.015);
  close(noiseMarginFraction(0.9), 0.01);
  close(noiseMarginFraction(0.97), 0.003);
  close(noiseMarginFraction(1), 0);
});

test('δ(s) is continuous at 0.70 and never increases with s', () => {
  fc.assert(
    fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (a, b) => {
      const [low, high] = a <= b ? [a, b] : [b, a];
      return noiseMarginFraction(high) <= noiseMarginFraction(low) + 1e-15;
    }),
  );
  close(noiseMarginFraction(0.7 + 1e-12), 0.03);
});

test('a share outside [0, 1] is a programming error', () => {
  assert.throws(() => noiseMarginFraction(-0.1), RangeError);
  assert.throws(() => noiseMarginFraction(1.1), RangeError);
  assert.throws(() => noiseMarginFraction(Number.NaN), RangeError);
});
