// Pre-evaluation of hostile packs: each finishes in seconds, off the event loop, and a scan past its
// time limit rejects the pack instead of holding the worker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type OpenAI from 'openai';
import {
  amplifierPack,
  deepNestingPack,
  paddedBase64Pack,
  paddedMixedPack,
} from '../test/fixtures/hostile/hostile-packs.ts';
import { bundlePack } from '../packs/bundle-pack.ts';
import type { CanonicalPack } from '../packs/canonical-pack.ts';
import { packHash } from '../packs/canonical-pack.ts';
import { parsePreEvalConfig } from './preeval-config.ts';
import type { JudgeCache } from './judge-cache.ts';
import type { PackOwners } from './pack-owners.ts';
import { localOwner, runPreEval, type PreEvalDependencies } from './run-preeval.ts';
import { buildScenarioFingerprints } from './scenario-fingerprints.ts';

const fingerprints = await buildScenarioFingerprints();
const config = parsePreEvalConfig(JSON.stringify({ version: 1, judge: { enabled: false, model: 'none' } }));

function deps(earlier: CanonicalPack[] = [], scanTimeLimitMs?: number): PreEvalDependencies {
  return {
    config,
    owners: {} as PackOwners, // a local run claims nothing
    fingerprints: async () => fingerprints,
    earlierPacks: async () =>
      earlier.map((pack, i) => ({
        packHash: packHash(pack),
        owner: `other-${i}`,
        claimedAt: '2000-01-01T00:00:00Z',
        pack,
      })),
    judge: { client: {} as OpenAI, cache: {} as JudgeCache },
    scanTimeLimitMs,
  };
}

async function preEval(pack: CanonicalPack, dependencies: PreEvalDependencies) {
  const bundleCode = (await bundlePack(pack)).code;
  return runPreEval(
    { pack, packHash: packHash(pack), bundleCode, owner: localOwner, claimedAt: new Date().toISOString() },
    dependencies,
  );
}

for (const [name, build] of [
  ['padded base64', paddedBase64Pack],
  ['amplifier', amplifierPack],
  ['deep nesting', deepNestingPack],
  ['every file kind padded', paddedMixedPack],
] as const) {
  test(`${name}: pre-evaluation finishes while the event loop keeps ticking (its time: bench/preeval-scan.ts)`, {
    timeout: 60_000,
  }, async () => {
    const pack = build();
    let ticks = 0;
    let longestGapMs = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGapMs = Math.max(longestGapMs, now - last);
      last = now;
      ticks++;
    }, 20);
    try {
      // Similarity against a few earlier packs of the same shape runs too.
      const report = await preEval(
        pack,
        deps(
          [amplifierPack(), paddedBase64Pack(), deepNestingPack(), paddedMixedPack()].filter(
            (other) => packHash(other) !== packHash(pack),
          ),
        ),
      );
      assert.ok(report.scan, 'the static scan ran');
      assert.ok(Array.isArray(report.nearCopies), 'the similarity check ran');
    } finally {
      clearInterval(ticker);
    }
    assert.ok(ticks > 0);
    // Bundling runs on the loop too (esbuild is a separate process); scans must not add long gaps.
    assert.ok(longestGapMs < 2_000, `the event loop stalled for ${Math.round(longestGapMs)} ms`);
  });
}

test("a scan past its time limit rejects the pack (the pack's failure), the worker goes on", {
  timeout: 60_000,
}, async () => {
  const report = await preEval(paddedBase64Pack(), deps([], 1));
  assert.equal(report.verdict, 'reject');
  assert.equal(report.reasons[0]?.code, 'preeval_time_limit');
});
