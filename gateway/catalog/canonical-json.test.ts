import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson } from './canonical-json.ts';

test('keys are sorted at every depth and no whitespace is written', () => {
  assert.equal(
    canonicalJson({ b: 1, a: { d: [3, { z: true, y: null }], c: 'x' } }),
    '{"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}',
  );
});

test('the same data in any key order gives the same text', () => {
  const one = JSON.parse('{"models":{"b":{"p":0.5},"a":{"p":1.95}},"cap_usd":1}');
  const two = JSON.parse('{ "cap_usd": 1, "models": { "a": { "p": 1.95 }, "b": { "p": 0.5 } } }');
  assert.equal(canonicalJson(one), canonicalJson(two));
});

test('values JSON cannot hold are refused rather than silently changed', () => {
  assert.throws(() => canonicalJson({ price: Number.NaN }), /NaN/);
  assert.throws(() => canonicalJson({ price: Infinity }), /Infinity/);
  assert.throws(() => canonicalJson({ price: 1n }), /bigint/);
  assert.equal(canonicalJson({ dropped: undefined, kept: 1 }), '{"kept":1}');
});
