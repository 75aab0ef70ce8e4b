import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildSpecManifest,
  manifestDifferences,
  specManifestHash,
  withDecision,
  type ManifestParts,
} from './spec-manifest.ts';

const parts: ManifestParts = {
  scenarioSpec: 3,
  scenarios: [
    { name: 'b', contentHash: 'h2' },
    { name: 'a', contentHash: 'h1' },
  ],
  images: { base: 'sha256:1', policy: 'sha256:2' },
  agent: { name: 'hermes', version: '0.19.2' },
  priceTableHash: 'p',
  capUsd: 1,
};

test('the hash does not depend on the order the scenarios or images were gathered in', () => {
  const reordered = {
    ...parts,
    scenarios: [...parts.scenarios].reverse(),
    images: { policy: 'sha256:2', base: 'sha256:1' },
  };
  assert.equal(specManifestHash(buildSpecManifest(parts)), specManifestHash(buildSpecManifest(reordered)));
  assert.match(specManifestHash(buildSpecManifest(parts)), /^[0-9a-f]{64}$/);
});

test('each part of the contest changes the hash, and the difference is named', () => {
  const base = buildSpecManifest(parts);
  const variants: [string, ManifestParts, RegExp][] = [
    [
      'scenario content',
      {
        ...parts,
        scenarios: [
          { name: 'a', contentHash: 'h1' },
          { name: 'b', contentHash: 'h3' },
        ],
      },
      /scenario b has different content/,
    ],
    ['scenario set', { ...parts, scenarios: [{ name: 'a', contentHash: 'h1' }] }, /scenario b only in the first/],
    ['image', { ...parts, images: { ...parts.images, base: 'sha256:9' } }, /image base differs/],
    [
      'agent version',
      { ...parts, agent: { name: 'hermes', version: '0.19.3' } },
      /agent hermes 0\.19\.2 ≠ hermes 0\.19\.3/,
    ],
    ['price table', { ...parts, priceTableHash: 'q' }, /price table differs/],
    ['cap', { ...parts, capUsd: 0.3 }, /cap \$1 ≠ \$0\.3/],
    ['spec', { ...parts, scenarioSpec: null }, /scenario spec 3 ≠ null/],
  ];
  for (const [what, variant, named] of variants) {
    const other = buildSpecManifest(variant);
    assert.notEqual(specManifestHash(other), specManifestHash(base), what);
    assert.match(manifestDifferences(base, other).join('\n'), named, what);
  }
  assert.deepEqual(manifestDifferences(base, buildSpecManifest(parts)), []);
});

test("the decision parameters are part of a seat decision's manifest", () => {
  const evaluation = buildSpecManifest(parts);
  const decided = withDecision(evaluation, { repeats: 1, bootstrapResamples: 10_000, confidence: 0.998, seed: 0 });
  const stricter = withDecision(evaluation, { repeats: 1, bootstrapResamples: 10_000, confidence: 0.999, seed: 0 });
  assert.equal(evaluation.decision, null);
  assert.notEqual(specManifestHash(decided), specManifestHash(evaluation));
  assert.notEqual(specManifestHash(decided), specManifestHash(stricter));
  assert.deepEqual(manifestDifferences(decided, stricter), ['decision parameters differ']);
});
