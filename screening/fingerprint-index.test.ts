import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findFingerprints, indexFingerprints } from './fingerprint-index.ts';
import type { ScenarioFingerprints } from './scenario-fingerprints.ts';

const set: ScenarioFingerprints = {
  version: 1,
  digest: 'x',
  scenarios: ['a', 'b'],
  skipped: [],
  fingerprints: [
    { kind: 'file-path', scenario: 'a', text: 'app report json', display: '/app/report.json' },
    { kind: 'test-string', scenario: 'a', text: 'app report', display: 'app report' },
    { kind: 'fixture-value', scenario: 'b', text: 'ord 10186', display: 'ORD-10186' },
  ],
};

test('whole-word sequences are found, nested ones too, with their positions', () => {
  const hits = findFingerprints(indexFingerprints(set), ['write', 'app', 'report', 'json', 'and', 'ord', '10186']);
  assert.deepEqual(
    hits.map((hit) => [hit.fingerprint.display, hit.start, hit.length]),
    [
      ['app report', 1, 2],
      ['/app/report.json', 1, 3],
      ['ORD-10186', 5, 2],
    ],
  );
});

test('parts of words do not match, and the index is built once per set', () => {
  const index = indexFingerprints(set);
  assert.equal(indexFingerprints(set), index);
  assert.deepEqual(findFingerprints(index, ['xapp', 'report', 'jsonx', 'ord', '101866']), []);
});
