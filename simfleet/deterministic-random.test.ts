import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson, DeterministicRandom, unitFromParts } from './deterministic-random.ts';

test('canonical JSON ignores key order at every depth', () => {
  assert.equal(
    canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } }),
    canonicalJson({ a: { c: null, d: [1, { y: 2, z: 1 }] }, b: 1 }),
  );
  assert.equal(canonicalJson({ b: 1, a: 2 }), '{"a":2,"b":1}');
});

test('the same parts give the same unit, different parts a different one', () => {
  assert.equal(unitFromParts('solve', 0, 'glm-5.2'), unitFromParts('solve', 0, 'glm-5.2'));
  assert.notEqual(unitFromParts('solve', 0, 'glm-5.2'), unitFromParts('solve', 1, 'glm-5.2'));
  const u = unitFromParts('x');
  assert.ok(u >= 0 && u < 1);
});

test('a random stream replays identically and stays in range', () => {
  const a = new DeterministicRandom('k');
  const b = new DeterministicRandom('k');
  const drawnA = Array.from({ length: 50 }, () => a.integer(3, 7));
  const drawnB = Array.from({ length: 50 }, () => b.integer(3, 7));
  assert.deepEqual(drawnA, drawnB);
  assert.ok(drawnA.every((n) => n >= 3 && n <= 7));
  assert.equal(new Set(drawnA).size, 5, 'all values of a small range appear over 50 draws');
  assert.notEqual(a.derive('x').next(), a.derive('y').next());
});

test('the numbers look uniform', () => {
  const random = new DeterministicRandom('uniform');
  const n = 4000;
  let below = 0;
  for (let i = 0; i < n; i++) if (random.next() < 0.3) below++;
  assert.ok(Math.abs(below / n - 0.3) < 0.03, `fraction below 0.3 was ${below / n}`);
});
