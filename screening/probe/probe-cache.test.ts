import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FileProbeCache, isReusableReport, probeCacheKeyHash, probeOnce, type ProbeCacheKey } from './probe-cache.ts';
import type { ProbeReport } from './probe-verdict.ts';

const root = await mkdtemp(path.join(os.tmpdir(), 'trl-probe-cache-'));
test.after(() => rm(root, { recursive: true, force: true }));
let folders = 0;
/** A cache in a folder of its own (the layout's probeCacheFile shape: pack hash, then key hash). */
function freshCache(): { cache: FileProbeCache; fileOf: (packHash: string, keyHash: string) => string } {
  const dir = path.join(root, String(folders++));
  const fileOf = (packHash: string, keyHash: string) => path.join(dir, packHash, `${keyHash}.json`);
  return { cache: new FileProbeCache(fileOf), fileOf };
}

const key: ProbeCacheKey = {
  packHash: 'a'.repeat(64),
  policyHash: 'b'.repeat(64),
  sandboxImage: 'trl-policy-sandbox:0123456789ab',
  scenarios: [
    { name: 'csv-sales-report', contentHash: 'c'.repeat(64) },
    { name: 'log-summary', contentHash: 'd'.repeat(64) },
  ],
  fingerprintsDigest: 'e'.repeat(64),
  openingHash: 'f'.repeat(64),
};
const provenance = { coverage: 1, units: 42, coveredUnits: 42, turns: 3, uncovered: [] };
const report: ProbeReport = {
  verdict: 'reject',
  reasons: [{ code: 'injected_scenario_content', message: 'the policy sent the models 2 pieces of scenario content' }],
  scenarios: [
    {
      scenario: 'csv-sales-report',
      turns: 3,
      provenance,
      injected: [{ scenario: 'csv-sales-report', kind: 'solution-line', display: 'top = sorted(...)' }],
    },
    { scenario: 'log-summary', turns: 2, provenance, injected: [] },
  ],
};
const origin = { probedAt: '2026-12-02T10:00:00.000Z', probedBy: 'evaluate-local-1' };

function countingProbe(answer: ProbeReport = report) {
  const probe = async () => {
    probe.calls += 1;
    return structuredClone(answer);
  };
  probe.calls = 0;
  return probe;
}

test('every part of the key moves its hash', () => {
  const base = probeCacheKeyHash(key);
  const variants: ProbeCacheKey[] = [
    { ...key, packHash: '0'.repeat(64) },
    { ...key, policyHash: '0'.repeat(64) },
    { ...key, sandboxImage: 'trl-policy-sidecar:0123456789ab' },
    { ...key, scenarios: [key.scenarios[0]!, { ...key.scenarios[1]!, contentHash: '0'.repeat(64) }] },
    { ...key, scenarios: [...key.scenarios].reverse() },
    { ...key, scenarios: key.scenarios.slice(0, 1) },
    { ...key, fingerprintsDigest: '0'.repeat(64) },
    { ...key, openingHash: '0'.repeat(64) },
  ];
  const hashes = new Set(variants.map(probeCacheKeyHash));
  assert.equal(hashes.size, variants.length);
  assert.ok(!hashes.has(base));
  assert.equal(probeCacheKeyHash(structuredClone(key)), base);
});

test('a stored verdict comes back whole, marked as cached with where it came from', async () => {
  const { cache } = freshCache();
  assert.equal(await cache.get(key), undefined);
  await cache.set(key, report, origin);
  const hit = await cache.get(key);
  assert.deepEqual(hit, { ...report, cached: { ...origin, keyHash: probeCacheKeyHash(key) } });
  assert.equal(await cache.get({ ...key, openingHash: '0'.repeat(64) }), undefined);
});

test('the second probe of the same key is served from the cache; another key probes again', async () => {
  const { cache } = freshCache();
  const probe = countingProbe();
  const first = await probeOnce(cache, key, origin, probe);
  assert.equal(first.cached, undefined);
  const second = await probeOnce(
    cache,
    key,
    { probedAt: '2026-12-03T00:00:00.000Z', probedBy: 'evaluate-local-2' },
    probe,
  );
  assert.equal(probe.calls, 1);
  assert.equal(second.cached?.probedBy, 'evaluate-local-1', 'the verdict names the run that played the conversations');
  assert.deepEqual({ ...second, cached: undefined }, { ...report, cached: undefined });
  await probeOnce(
    cache,
    { ...key, scenarios: [key.scenarios[0]!, { ...key.scenarios[1]!, contentHash: '0'.repeat(64) }] },
    origin,
    probe,
  );
  assert.equal(probe.calls, 2, 'a changed scenario content hash misses');
  await probeOnce(cache, { ...key, packHash: '0'.repeat(64) }, origin, probe);
  assert.equal(probe.calls, 3, 'another pack misses');
});

test('an entry that is corrupt, of the wrong shape, or written for another key is ignored and probed again', async () => {
  const { cache, fileOf } = freshCache();
  const file = fileOf(key.packHash, probeCacheKeyHash(key));
  await mkdir(path.dirname(file), { recursive: true });
  const otherKey = { ...key, fingerprintsDigest: '0'.repeat(64) };
  await cache.set(otherKey, { ...report, verdict: 'pass', reasons: [] }, origin);
  const otherEntry = await readFile(fileOf(key.packHash, probeCacheKeyHash(otherKey)), 'utf8');
  const tampered = JSON.parse(otherEntry);
  tampered.keyHash = probeCacheKeyHash(key);
  const corrupt: [string, string][] = [
    ['not JSON', '{"probeVersion": 1, "keyHa'],
    [
      'the wrong shape',
      JSON.stringify({
        probeVersion: 1,
        keyHash: probeCacheKeyHash(key),
        key,
        ...origin,
        report: { verdict: 'maybe', reasons: [], scenarios: [] },
      }),
    ],
    ['another key copied in', otherEntry],
    ["another key's entry claiming this key's hash", JSON.stringify(tampered)],
    [
      'an older probe version',
      JSON.stringify({ probeVersion: 0, keyHash: probeCacheKeyHash(key), key, ...origin, report }),
    ],
  ];
  for (const [what, text] of corrupt) {
    await writeFile(file, text);
    assert.equal(await cache.get(key), undefined, what);
    const probe = countingProbe();
    const answer = await probeOnce(cache, key, origin, probe);
    assert.equal(probe.calls, 1, what);
    assert.equal(answer.verdict, 'reject', what);
    assert.equal((await cache.get(key))?.verdict, 'reject', `${what}: replaced by the probe's own verdict`);
  }
});

test('a probe cut short (an error, fewer conversations than scenarios) is not kept', async () => {
  const { cache } = freshCache();
  const errored: ProbeReport = {
    ...report,
    scenarios: [report.scenarios[0]!, { ...report.scenarios[1]!, error: 'the policy did not start: timed out' }],
  };
  const short: ProbeReport = { ...report, scenarios: report.scenarios.slice(0, 1) };
  assert.equal(isReusableReport(key, report), true);
  for (const cut of [errored, short]) {
    assert.equal(isReusableReport(key, cut), false);
    const probe = countingProbe(cut);
    await probeOnce(cache, key, origin, probe);
    await probeOnce(cache, key, origin, probe);
    assert.equal(probe.calls, 2);
  }
});
