import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson, packHash } from './canonical-pack.ts';

test('canonical JSON sorts keys at every depth and has no whitespace', () => {
  assert.equal(
    canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } }),
    '{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}',
  );
});

test('the pack hash does not depend on key order', () => {
  const one = { schema_version: 1 as const, files: { 'a.ts': 'A', 'b.ts': 'B' } };
  const two = { files: { 'b.ts': 'B', 'a.ts': 'A' }, schema_version: 1 as const };
  assert.equal(packHash(one), packHash(two));
  assert.match(packHash(one), /^[0-9a-f]{64}$/);
});

test('any change to a file changes the pack hash', () => {
  const base = { schema_version: 1 as const, files: { 'a.ts': 'A' } };
  assert.notEqual(packHash(base), packHash({ ...base, files: { 'a.ts': 'A ' } }));
});
