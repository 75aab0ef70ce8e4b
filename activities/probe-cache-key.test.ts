import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { policySourceHash, probeCacheKeyOf } from './probe-cache-key.ts';
import { mergedScenarioFingerprints } from './fingerprint-cache.ts';
import { FileProbeCache, probeCacheKeyHash, probeOnce } from '../screening/probe/probe-cache.ts';
import type { ProbeReport } from '../screening/probe/probe-verdict.ts';
import { writeScenariosDir } from '../screening/testing/scenario-folders.ts';
import { hermesOpeningHash } from '../agents/hermes-opening.ts';

const scenariosDir = await writeScenariosDir(
  {
    'ledger-totals': {
      instruction: '# Ledger totals\n\nSum the quarterly ledger in /app/ledger.tsv into /app/out/totals.json.\n',
      files: { 'environment/ledger.tsv': 'q1\t10\nq2\t20\n' },
    },
    'orbit-plotter': {
      instruction: '# Orbit plotter\n\nPlot the satellite orbits listed in /app/orbits.csv into /app/out/orbits.svg.\n',
    },
  },
  { after: test.after },
);
const cacheDir = await mkdtemp(path.join(os.tmpdir(), 'trl-probe-cache-key-'));
test.after(() => rm(cacheDir, { recursive: true, force: true }));

const scenarios = ['ledger-totals', 'orbit-plotter'].map((name) => ({ name, dir: path.join(scenariosDir, name) }));
const policy = { kind: 'typescript' as const, bundleCode: 'export default { complete: (r, ctx) => ctx.upstream(r) };' };
const packHash = '1'.repeat(64);
const keyOf = async (overrides: { packHash?: string; policy?: typeof policy } = {}) =>
  probeCacheKeyOf({
    packHash,
    policy,
    sandboxImage: 'trl-policy-sandbox:0123456789ab',
    scenarios,
    fingerprintsDigest: (await mergedScenarioFingerprints([scenariosDir])).digest,
    ...overrides,
  });

test('the key holds each probed scenario content hash, the fingerprints digest and the Hermes opening hash', async () => {
  const key = await keyOf();
  assert.deepEqual(
    key.scenarios.map((s) => s.name),
    ['ledger-totals', 'orbit-plotter'],
  );
  assert.ok(
    key.scenarios.every((s) => /^[0-9a-f]{64}$/.test(s.contentHash)) &&
      key.scenarios[0]!.contentHash !== key.scenarios[1]!.contentHash,
  );
  assert.equal(key.openingHash, hermesOpeningHash());
  assert.match(key.fingerprintsDigest, /^[0-9a-f]{64}$/);
  assert.deepEqual(await keyOf(), key, 'the same inputs make the same key');
});

test('what runs is part of the key: the bundle, or the files and the kind', () => {
  const hashes = new Set([
    policySourceHash(policy),
    policySourceHash({ ...policy, bundleCode: policy.bundleCode + '\n' }),
    policySourceHash({ kind: 'python', files: { 'policy.py': 'x = 1\n' } }),
    policySourceHash({ kind: 'data', files: { 'policy.py': 'x = 1\n' } }),
    policySourceHash({ kind: 'python', files: { 'policy.py': 'x = 2\n' } }),
  ]);
  assert.equal(hashes.size, 5);
});

test('a second probe of the same pack is served from the cache; a changed scenario or another pack probes again', async () => {
  const cache = new FileProbeCache((pack, keyHash) => path.join(cacheDir, pack, `${keyHash}.json`));
  let calls = 0;
  const probe = async (): Promise<ProbeReport> => {
    calls += 1;
    const provenance = { coverage: 1, units: 30, coveredUnits: 30, turns: 2, uncovered: [] };
    return {
      verdict: 'pass',
      reasons: [],
      scenarios: scenarios.map((s) => ({ scenario: s.name, turns: 2, provenance, injected: [] })),
    };
  };
  const origin = { probedAt: new Date().toISOString(), probedBy: 'evaluate-local-1' };
  assert.equal((await probeOnce(cache, await keyOf(), origin, probe)).cached, undefined);
  const again = await probeOnce(cache, await keyOf(), { ...origin, probedBy: 'evaluate-local-2' }, probe);
  assert.equal(calls, 1);
  assert.equal(again.cached?.probedBy, 'evaluate-local-1');

  await appendFile(path.join(scenariosDir, 'orbit-plotter', 'instruction.md'), '\nUse a log scale for the radius.\n');
  const changed = await probeOnce(cache, await keyOf(), origin, probe);
  assert.equal(calls, 2, 'the changed scenario content hash misses');
  assert.equal(changed.cached, undefined);
  assert.ok((await probeOnce(cache, await keyOf(), origin, probe)).cached, 'and is kept under its new key');

  const other = await probeOnce(
    cache,
    await keyOf({ packHash: '2'.repeat(64), policy: { ...policy, bundleCode: policy.bundleCode + '//' } }),
    origin,
    probe,
  );
  assert.equal(calls, 3, 'another pack misses');
  assert.equal(other.cached, undefined);
});

test('where the tool results come from is part of the key: another image, or the build context, probes again', async () => {
  const withEnvironments = (environments: string[]) =>
    probeCacheKeyOf({
      packHash,
      policy,
      sandboxImage: 'trl-policy-sandbox:0123456789ab',
      scenarios,
      fingerprintsDigest: 'digest',
      environments,
    });
  const image = await withEnvironments(['image sha256:aa', 'build context']);
  assert.equal(image.scenarios[0]!.environment, 'image sha256:aa');
  const hashes = new Set(
    [
      image,
      await withEnvironments(['image sha256:bb', 'build context']),
      await withEnvironments(['build context', 'build context']),
    ].map(probeCacheKeyHash),
  );
  assert.equal(hashes.size, 3);
});
