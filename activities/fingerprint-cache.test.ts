import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cachedScenarioFingerprints, mergedScenarioFingerprints } from './fingerprint-cache.ts';
import { writeScenariosDir } from '../screening/testing/scenario-folders.ts';

const first = await writeScenariosDir(
  {
    'ledger-totals': {
      instruction: '# Ledger totals\n\nSum the quarterly ledger in /app/ledger.tsv into /app/out/totals.json.\n',
    },
  },
  { after: test.after },
);
const second = await writeScenariosDir(
  {
    'orbit-plotter': {
      instruction: '# Orbit plotter\n\nPlot the satellite orbits listed in /app/orbits.csv into /app/out/orbits.svg.\n',
    },
  },
  { after: test.after },
);

test('one directory: its own fingerprint set, digest included', async () => {
  const own = await cachedScenarioFingerprints(first);
  assert.deepEqual(await mergedScenarioFingerprints([first]), own);
});

test('several directories: one set holding each directory once, with a digest over all of them', async () => {
  const [a, b] = [await cachedScenarioFingerprints(first), await cachedScenarioFingerprints(second)];
  const merged = await mergedScenarioFingerprints([first, second, first]);
  assert.deepEqual(merged.scenarios, ['ledger-totals', 'orbit-plotter']);
  assert.equal(merged.fingerprints.length, a.fingerprints.length + b.fingerprints.length);
  assert.ok(
    merged.fingerprints.some((f) => f.scenario === 'orbit-plotter') &&
      merged.fingerprints.some((f) => f.scenario === 'ledger-totals'),
  );
  assert.notEqual(merged.digest, a.digest);
  assert.notEqual(merged.digest, b.digest);
  assert.equal((await mergedScenarioFingerprints([first, second])).digest, merged.digest);
});

test('no directory: an empty set, not a crash', async () => {
  const none = await mergedScenarioFingerprints([]);
  assert.deepEqual([none.scenarios, none.fingerprints, none.skipped], [[], [], []]);
});

test('the same directories give the same object, so the index over it is built once', async () => {
  assert.equal(
    await mergedScenarioFingerprints([first, second]),
    await mergedScenarioFingerprints([first, second, first]),
  );
  assert.equal(await mergedScenarioFingerprints([first]), await cachedScenarioFingerprints(first));
  assert.notEqual(
    await mergedScenarioFingerprints([second, first]),
    await mergedScenarioFingerprints([first, second]),
    'another order is another set',
  );
});
