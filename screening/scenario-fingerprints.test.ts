import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findFingerprints, indexFingerprints } from './fingerprint-index.ts';
import { distinctiveWordCount } from './generic-vocabulary.ts';
import {
  buildScenarioFingerprints,
  fingerprintLimits,
  fingerprintsFromSources,
  parseScenarioFingerprints,
  readHonestReferenceTexts,
  type ScenarioFingerprints,
} from './scenario-fingerprints.ts';
import { readAllScenarioSources, type ScenarioSources } from './scenario-sources.ts';
import { writeScenariosDir } from './testing/scenario-folders.ts';
import { wordTokens } from './word-tokens.ts';

const real = await buildScenarioFingerprints();
const of = (set: ScenarioFingerprints, scenario: string) =>
  set.fingerprints.filter((fingerprint) => fingerprint.scenario === scenario);

test('every scenario that loads has fingerprints, of several kinds', () => {
  const { scenarios } = real;
  assert.ok(scenarios.length >= 3, scenarios.join(','));
  for (const scenario of scenarios) {
    const kinds = new Set(of(real, scenario).map((fingerprint) => fingerprint.kind));
    assert.ok(kinds.has('scenario-name') && kinds.size >= 3, `${scenario}: ${[...kinds].join(', ')}`);
  }
});

test('the fingerprints of a scenario are what a gaming policy would embed', () => {
  const csv = of(real, 'csv-sales-report');
  const has = (kind: string, display: string) =>
    csv.some((fingerprint) => fingerprint.kind === kind && fingerprint.display === display);
  assert.ok(has('test-name', 'test_top_product_is_trimmed_name_with_highest_revenue'));
  assert.ok(has('test-string', 'Office Chair'));
  assert.ok(has('expected-value', '3579620'));
  assert.ok(has('file-path', '/app/data/sales.csv'));
  assert.ok(has('instruction-title', 'Sales report from a messy CSV export'));
  assert.ok(has('solution-line', 'top = sorted(by_product.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]'));
  assert.ok(csv.some((fingerprint) => fingerprint.kind === 'fixture-value' && /^ORD-\d{5}$/.test(fingerprint.display)));
  assert.ok(csv.some((fingerprint) => fingerprint.kind === 'instruction-phrase' && fingerprint.text.includes('messy')));
});

test('boilerplate is not a fingerprint: nothing from the policy SDK, nothing made only of generic words', async () => {
  const sdkWords = (await readHonestReferenceTexts()).map(wordTokens);
  const index = indexFingerprints(real);
  for (const words of sdkWords)
    assert.deepEqual(
      findFingerprints(index, words).map((hit) => hit.fingerprint.display),
      [],
    );
  for (const fingerprint of real.fingerprints) {
    if (fingerprint.kind === 'expected-value' || fingerprint.kind === 'fixture-value') continue;
    assert.ok(
      distinctiveWordCount(fingerprint.text.split(' ')) >= 1,
      `${fingerprint.kind} "${fingerprint.display}" has only generic words`,
    );
  }
  for (const phrase of ['standard library only', 'do not modify the data files', 'python 3 standard library only']) {
    assert.ok(!real.fingerprints.some((fingerprint) => fingerprint.text === phrase), phrase);
  }
});

test('text that two scenarios share is boilerplate; what only one has is kept', () => {
  const shared =
    'Write the tool in Python 3 using only the standard library and keep the command line interface unchanged for every caller we have.';
  const source = (name: string, own: string): ScenarioSources => ({
    name,
    instruction: `# ${own}\n\n${shared}\n\n${own} must reconcile the quarterly ledger of harbour freight invoices against warehouse manifests into \`/app/ledger/report.json\`.`,
    tests: [
      {
        path: 'test_outputs.py',
        text: `def test_${name}_ledger_is_reconciled():\n    assert value == "Shared Expected Value"\n`,
      },
    ],
    solutions: [],
    environment: [],
  });
  const set = fingerprintsFromSources([source('alpha', 'Alpha'), source('beta', 'Beta')]);
  const texts = new Set(set.fingerprints.map((fingerprint) => fingerprint.text));
  for (const words of [wordTokens(shared).slice(0, 8), wordTokens(shared).slice(10, 18)])
    assert.ok(!texts.has(words.join(' ')), words.join(' '));
  assert.ok(!texts.has('shared expected value'));
  assert.ok(texts.has('test alpha ledger is reconciled'));
  assert.ok(texts.has('alpha must reconcile the quarterly ledger of harbour'));
  // A path the two share is still theirs: a fingerprint of each.
  assert.deepEqual(
    set.fingerprints
      .filter((fingerprint) => fingerprint.display === '/app/ledger/report.json')
      .map((fingerprint) => fingerprint.scenario),
    ['alpha', 'beta'],
  );
});

test('fixture values are sampled, bounded and deterministic', () => {
  const rows = Array.from({ length: 2000 }, (_, index) => `CUST-${String(100000 + index * 7)},name\n`).join('');
  const source: ScenarioSources = {
    name: 'many-rows',
    instruction: '# Many rows\n',
    tests: [],
    solutions: [],
    environment: [{ path: 'data/rows.csv', text: rows }],
  };
  const first = fingerprintsFromSources([source]).fingerprints.filter(
    (fingerprint) => fingerprint.kind === 'fixture-value',
  );
  const second = fingerprintsFromSources([source]).fingerprints.filter(
    (fingerprint) => fingerprint.kind === 'fixture-value',
  );
  assert.equal(first.length, fingerprintLimits.maxFixtureValuesPerScenario);
  assert.deepEqual(first, second);
});

test('a folder that fails to load is skipped and named; the rest are fingerprinted', async (t) => {
  const dir = await writeScenariosDir(
    {
      ledger: {
        instruction:
          '# Reconcile the harbour freight ledger\n\nMatch every invoice in `/app/ledger/invoices.csv` against the manifests.\n',
      },
      draft: { instruction: '# Draft\n', taskToml: '[metadata\ncategory = = broken\n' },
    },
    t,
  );
  const set = await buildScenarioFingerprints(dir);
  assert.deepEqual(set.scenarios, ['ledger']);
  assert.deepEqual(
    set.skipped.map((entry) => entry.name),
    ['draft'],
  );
  assert.ok(
    set.fingerprints.some(
      (fingerprint) => fingerprint.kind === 'file-path' && fingerprint.display === '/app/ledger/invoices.csv',
    ),
  );
});

// How long a build takes is bench/preeval-scan.ts's to say, never a test's.
test('deterministic and cacheable as JSON', async () => {
  // Built twice from the same texts (scenarios may be added while the suite runs).
  const { sources, skipped } = await readAllScenarioSources();
  const honestTexts = await readHonestReferenceTexts();
  assert.deepEqual(
    fingerprintsFromSources(sources, { skipped, honestTexts }),
    fingerprintsFromSources([...sources].reverse(), { skipped, honestTexts }),
  );
  assert.deepEqual(parseScenarioFingerprints(JSON.stringify(real)), real);
  assert.throws(() => parseScenarioFingerprints('{"version":2}'), /not a scenario fingerprint set/);
});
