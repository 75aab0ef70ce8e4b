import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bundlePack } from '../packs/bundle-pack.ts';
import { packKindOf } from '../packs/pack-format.ts';
import type { CanonicalPack } from '../packs/canonical-pack.ts';
import { defaultScanThresholds, parseScanThresholds, type ScanThresholds } from './scan-thresholds.ts';
import { buildScenarioFingerprints, type ScenarioFingerprints } from './scenario-fingerprints.ts';
import { bundleFileName, scanPack, type ScanResult } from './static-scan.ts';
import { byName, readCorpus } from './testing/corpus.ts';

const fingerprints = await buildScenarioFingerprints();
const corpus = await readCorpus();
// TypeScript packs are scanned with their bundle too; Python and data packs have none.
const bundles = new Map(
  await Promise.all(
    corpus
      .filter((entry) => packKindOf(entry.pack) === 'typescript')
      .map(async (entry) => [entry.name, (await bundlePack(entry.pack)).code] as const),
  ),
);
const scan = (name: string) =>
  scanPack({ pack: byName(corpus, name).pack, bundleCode: bundles.get(name) }, fingerprints, defaultScanThresholds);
const hardKinds = Object.entries(defaultScanThresholds.kinds)
  .filter(([, rule]) => rule.hardReject)
  .map(([kind]) => kind);
const has = (result: ScanResult, kind: string, scenario?: string, encoding?: string) =>
  result.evidence.some(
    (item) =>
      item.kind === kind &&
      (scenario === undefined || item.scenario === scenario) &&
      (encoding === undefined || item.encoding === encoding),
  );

test('every TypeScript corpus pack bundles (no pack here is meant to be refused at bundle time)', () => {
  assert.equal(bundles.size, corpus.filter((entry) => packKindOf(entry.pack) === 'typescript').length);
  assert.ok(corpus.filter((entry) => entry.group === 'honest').length >= 4);
  assert.ok(corpus.filter((entry) => entry.group === 'example').length >= 6);
});

test('every honest pack and every example passes with no hard evidence', (t) => {
  for (const entry of corpus.filter((candidate) => candidate.group !== 'gaming')) {
    const result = scan(entry.name);
    t.diagnostic(`${entry.group}/${entry.name}: ${result.verdict} ${result.score}`);
    assert.equal(result.verdict, 'pass', `${entry.name}: ${JSON.stringify(result.evidence.slice(0, 3))}`);
    assert.ok(!result.evidence.some((item) => hardKinds.includes(item.kind)), entry.name);
  }
});

test('keyed-answers is rejected for replaying solutions it recognises by instruction text', () => {
  const result = scan('keyed-answers');
  assert.equal(result.verdict, 'reject');
  assert.ok(has(result, 'instruction-title', 'csv-sales-report'));
  for (const scenario of ['csv-sales-report', 'sqlite-orders-analytics', 'fix-inventory-bug'])
    assert.ok(has(result, 'solution-line', scenario), scenario);
});

test('test-string-stuffing is rejected on the hidden tests it quotes (a test name alone is enough)', () => {
  const result = scan('test-string-stuffing');
  assert.equal(result.verdict, 'reject');
  for (const scenario of [
    'csv-sales-report',
    'fix-inventory-bug',
    'git-purge-leaked-secret',
    'sqlite-orders-analytics',
  ])
    assert.ok(has(result, 'test-name', scenario), scenario);
  assert.ok(has(result, 'test-string', 'csv-sales-report'));
  const one = { ...byName(corpus, 'round-robin').pack };
  one.files = { ...one.files, 'notes.md': 'Tuned against test_valid_orders_counts_each_order_id_once.\n' };
  assert.equal(scanPack({ pack: one }, fingerprints, defaultScanThresholds).verdict, 'reject');
});

test('fetches-answers is rejected for reaching the network', () => {
  const result = scan('fetches-answers');
  assert.equal(result.verdict, 'reject');
  assert.ok(has(result, 'network-fetch') && has(result, 'url'));
});

test('encoded-answers is rejected, and each hidden form is decoded and attributed', () => {
  const result = scan('encoded-answers');
  assert.equal(result.verdict, 'reject');
  assert.ok(has(result, 'file-path', 'csv-sales-report', 'base64'));
  assert.ok(has(result, 'solution-line', 'fix-inventory-bug', 'hex'));
  assert.ok(has(result, 'solution-line', 'sqlite-orders-analytics', 'hex'));
  assert.ok(has(result, 'file-path', 'sqlite-orders-analytics', 'char-codes'));
  assert.ok(has(result, 'test-string', 'git-purge-leaked-secret', 'joined'));
  assert.ok(has(result, 'test-name', 'csv-sales-report', 'reversed'));
  // Nothing of it is in plain sight in the source.
  assert.ok(
    !result.evidence.some(
      (item) => item.file === 'policy.ts' && item.encoding === 'plain' && item.kind !== 'scenario-name',
    ),
    JSON.stringify(result.evidence.filter((item) => item.encoding === 'plain')),
  );
});

test('judge-injection passes the static scan but its words for the judge are evidence; renamed-copy is for similarity', () => {
  const injected = scan('judge-injection');
  assert.equal(injected.verdict, 'pass');
  assert.ok(has(injected, 'judge-injection'));
  assert.equal(scan('renamed-copy').verdict, 'pass');
});

test('evidence shows the file, the line, an excerpt of at most 200 characters and what matched', () => {
  for (const name of ['keyed-answers', 'encoded-answers', 'test-string-stuffing', 'fetches-answers']) {
    const pack = byName(corpus, name).pack;
    for (const item of scan(name).evidence) {
      const text = item.file === bundleFileName ? bundles.get(name)! : pack.files[item.file]!;
      const line = text.split('\n')[item.line - 1];
      assert.ok(line !== undefined, `${name} ${item.file}:${item.line}`);
      assert.ok(item.excerpt.length <= 200 && item.excerpt.length > 0, item.excerpt);
      assert.ok(
        line.includes(item.excerpt.replace(/^…|…$/g, '')),
        `${item.file}:${item.line} excerpt not from that line`,
      );
      assert.ok(item.matched.length > 0 && item.matched.length <= 200);
    }
  }
  const fetched = scan('fetches-answers').evidence.find((item) => item.kind === 'network-fetch')!;
  assert.deepEqual([fetched.file, fetched.line, fetched.matched], ['policy.ts', 11, 'fetch(']);
});

test('scanning is deterministic', () => {
  for (const name of ['keyed-answers', 'encoded-answers', 'majority-vote']) assert.deepEqual(scan(name), scan(name));
});

// Small packs against a hand-made fingerprint set: weights, caps, hard kinds, decoding bonus.
const tiny: ScenarioFingerprints = {
  version: 1,
  digest: 'test',
  scenarios: ['freight', 'ledger'],
  skipped: [],
  fingerprints: [
    { kind: 'test-name', scenario: 'ledger', text: 'test ledger balances', display: 'test_ledger_balances' },
    { kind: 'fixture-value', scenario: 'ledger', text: 'inv 20931', display: 'INV-20931' },
    { kind: 'fixture-value', scenario: 'ledger', text: 'inv 20932', display: 'INV-20932' },
    { kind: 'fixture-value', scenario: 'ledger', text: 'inv 20933', display: 'INV-20933' },
    { kind: 'file-path', scenario: 'freight', text: 'app ledger report json', display: '/app/ledger/report.json' },
    { kind: 'file-path', scenario: 'ledger', text: 'app ledger report json', display: '/app/ledger/report.json' },
    {
      kind: 'instruction-phrase',
      scenario: 'ledger',
      text: 'reconcile the quarterly ledger of harbour freight invoices',
      display: 'reconcile the quarterly ledger of harbour freight invoices',
    },
    {
      kind: 'instruction-phrase',
      scenario: 'ledger',
      text: 'the quarterly ledger of harbour freight invoices against',
      display: 'the quarterly ledger of harbour freight invoices against',
    },
  ],
};
const packOf = (code: string): CanonicalPack => ({
  schema_version: 1,
  files: { 'SKILL.md': '# t\n', 'policy.ts': code },
});
const thresholds: ScanThresholds = parseScanThresholds({});

test('each finding counts once, each kind is capped, decoded findings weigh more', () => {
  const plain = scanPack(
    { pack: packOf(`const ids = 'INV-20931 INV-20932 INV-20933';\nconst again = 'INV-20931';`) },
    tiny,
    thresholds,
  );
  assert.equal(plain.score, 12);
  assert.equal(plain.evidence.length, 3);
  const capped = scanPack(
    { pack: packOf(`const ids = 'INV-20931 INV-20932 INV-20933';`) },
    tiny,
    parseScanThresholds({ kinds: { 'fixture-value': { weight: 4, cap: 10, hardReject: false } } }),
  );
  assert.equal(capped.score, 10);
  const hidden = scanPack(
    { pack: packOf(`const id = atob('${Buffer.from('INV-20931').toString('base64')}');`) },
    tiny,
    thresholds,
  );
  assert.equal(hidden.score, 8);
  assert.equal(hidden.evidence[0]!.encoding, 'base64');
});

test('a hard kind rejects on its own, whatever the score', () => {
  const result = scanPack({ pack: packOf(`// tuned on test_ledger_balances\n`) }, tiny, thresholds);
  assert.equal(result.verdict, 'reject');
  assert.deepEqual(
    result.evidence.map((item) => [item.kind, item.scenario, item.line]),
    [['test-name', 'ledger', 1]],
  );
});

test('overlapping instruction shingles are one piece of evidence but count one by one', () => {
  const result = scanPack(
    { pack: packOf(`const hint = 'Reconcile the quarterly ledger of harbour freight invoices against manifests';`) },
    tiny,
    thresholds,
  );
  assert.equal(result.evidence.length, 1);
  assert.equal(result.evidence[0]!.matched, 'reconcile the quarterly ledger of harbour freight invoices against');
  assert.equal(result.score, 10);
});

test('the bundle adds only what the sources do not show', () => {
  const code = `const id = 'INV-20931';`;
  const result = scanPack(
    { pack: packOf(code), bundleCode: `var id = "INV-20931";\nvar other = "INV-20932";` },
    tiny,
    thresholds,
  );
  assert.deepEqual(
    result.evidence.map((item) => `${item.file}:${item.matched}`),
    ['policy.ts:INV-20931', `${bundleFileName}:INV-20932`],
  );
});

test('a path two scenarios share is shown for both but counted once; its words alone are not enough', () => {
  const result = scanPack(
    { pack: packOf(`const out = '/app/ledger/report.json';\n// the app ledger report (json) is ours`) },
    tiny,
    thresholds,
  );
  assert.deepEqual(
    result.evidence.map((item) => [item.scenario, item.line]),
    [
      ['freight', 1],
      ['ledger', 1],
    ],
  );
  assert.equal(result.score, 5);
});
