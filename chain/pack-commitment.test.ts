import { test } from 'node:test';
import assert from 'node:assert/strict';
import { displayRaw, formatPackCommitment, parsePackCommitment } from './pack-commitment.ts';

const hash = 'ab'.repeat(32);

test('a well-formed commitment parses and round-trips', () => {
  const text = formatPackCommitment(hash, 'https://example.com/p.json');
  assert.deepEqual(parsePackCommitment(text), { ok: true, packHash: hash, url: 'https://example.com/p.json' });
  assert.deepEqual(parsePackCommitment(`${hash.toUpperCase()}|https://example.com/p.json`), {
    ok: true,
    packHash: hash,
    url: 'https://example.com/p.json',
  });
});

test('malformed commitments are refused with a reason', () => {
  const cases: [string, RegExp][] = [
    ['', /exactly one/],
    [hash, /exactly one/],
    [`${hash}|https://a|b`, /exactly one/],
    [`${hash.slice(1)}|https://example.com`, /64 hexadecimal/],
    [`${'zz'.repeat(32)}|https://example.com`, /64 hexadecimal/],
    [`${hash}|`, /empty/],
    [`${hash}|http://example.com/p.json`, /https/],
    [`${hash}|file:///etc/passwd`, /https/],
    [`${hash}|not a url`, /does not parse/],
    [`${hash}|https://user:pw@example.com/`, /credentials/],
    [`${hash}|https://example.com/${'a'.repeat(300)}`, /longer/],
  ];
  for (const [text, reason] of cases) {
    const parsed = parsePackCommitment(text);
    assert.equal(parsed.ok, false, text);
    if (!parsed.ok) assert.match(parsed.reason, reason, text);
  }
});

test('raw text shown to operators has no control characters and is bounded', () => {
  assert.equal(displayRaw('a\u001b[31mb\n'), 'a?[31mb?');
  assert.equal(displayRaw('x'.repeat(1000)).length, 200);
});
