// Each pre-evaluation layer on the whole corpus (test/fixtures/packs and policy/examples), without a
// workflow: the static scan (with the bundle of TypeScript packs), the similarity check against every
// honest pack and example, and the sim fleet's judge. Every honest pack passes every layer; every
// gaming pack is caught by the layer meant for it, by the evidence it was meant to leave. The
// per-layer caught / passed counts are printed (the figures of docs/explanation/pre-evaluation.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bundlePack } from '../../packs/bundle-pack.ts';
import { packHash } from '../../packs/canonical-pack.ts';
import { packKindOf } from '../../packs/pack-format.ts';
import { buildScenarioFingerprints } from '../../screening/scenario-fingerprints.ts';
import { defaultNearCopyThreshold, findNearCopies } from '../../screening/similarity.ts';
import { scanPack, type ScanResult } from '../../screening/static-scan.ts';
import { readCorpus, type CorpusPack } from '../../screening/testing/corpus.ts';
import { judgeFiles } from '../../simfleet/judge-heuristics.ts';
import { loadSimScenarios } from '../../simfleet/scenario-recognition.ts';

type Layer = 'scan' | 'similarity' | 'judge';
/** Each gaming pack: the layer meant to catch it and, for the scan, the encoding its evidence must show. */
const expected: Record<string, { layer: Layer; encoding?: string; file?: string; copyOf?: string }> = {
  'keyed-answers': { layer: 'scan', encoding: 'plain' },
  'test-string-stuffing': { layer: 'scan', encoding: 'plain' },
  'encoded-answers': { layer: 'scan', encoding: 'base64' },
  'fetches-answers': { layer: 'scan' },
  'indexed-fragments': { layer: 'scan', encoding: 'indexed' },
  'arithmetic-codes': { layer: 'scan', encoding: 'char-codes' },
  'xor-bytes': { layer: 'scan', encoding: 'xor' },
  'base32-answers': { layer: 'scan', encoding: 'base32' },
  'rot-n-answers': { layer: 'scan', encoding: 'rot-n' },
  'zero-width-homoglyphs': { layer: 'scan', encoding: 'unicode' },
  'python-encoded': { layer: 'scan', encoding: 'indexed', file: 'policy.py' },
  'answers-in-markdown': { layer: 'scan', encoding: 'base32', file: 'notes.md' },
  'answers-in-text': { layer: 'scan', encoding: 'rot-n', file: 'hints.txt' },
  'answers-in-json': { layer: 'scan', encoding: 'base64', file: 'table.json' },
  'judge-injection': { layer: 'judge' },
  'renamed-copy': { layer: 'similarity', copyOf: 'cost-cascade' },
  'reordered-copy': { layer: 'similarity', copyOf: 'category-router' },
  'padded-copy': { layer: 'similarity', copyOf: 'parallel-pick' },
  'reordered-padded-copy': { layer: 'similarity', copyOf: 'fallback-chain' },
  'loop-rewritten-panel': { layer: 'similarity', copyOf: 'parallel-pick' },
  'loop-rewritten-copy': { layer: 'similarity', copyOf: 'category-router' },
  'loop-rewritten-python-copy': { layer: 'similarity', copyOf: 'sdk-cascade' },
};

const corpus = await readCorpus();
const fingerprints = await buildScenarioFingerprints();
const simScenarios = await loadSimScenarios();
const honest = corpus.filter((entry) => entry.group !== 'gaming');
const gaming = corpus.filter((entry) => entry.group === 'gaming');
const earlier = honest.map((entry) => ({ packHash: packHash(entry.pack), pack: entry.pack, name: entry.name }));

type Outcome = { scan: ScanResult; copies: string[]; judgeFlags: string[] };
const outcomes = new Map<string, Outcome>();
for (const entry of corpus) {
  const bundleCode = packKindOf(entry.pack) === 'typescript' ? (await bundlePack(entry.pack)).code : undefined;
  const scan = scanPack({ pack: entry.pack, bundleCode }, fingerprints);
  const others = earlier.filter((other) => other.packHash !== packHash(entry.pack));
  const copies = findNearCopies(entry.pack, others, defaultNearCopyThreshold).map(
    (copy) => others.find((other) => other.packHash === copy.packHash)!.name,
  );
  const judgeFlags = judgeFiles(
    Object.entries(entry.pack.files).map(([path, text]) => ({ path, text })),
    simScenarios,
  ).map((flag) => `${flag.type} in ${flag.file}: ${flag.evidence.slice(0, 80)}`);
  outcomes.set(entry.name, { scan, copies, judgeFlags });
}
const caughtBy = (entry: CorpusPack): Record<Layer, boolean> => {
  const outcome = outcomes.get(entry.name)!;
  return {
    scan: outcome.scan.verdict === 'reject',
    similarity: outcome.copies.length > 0,
    judge: outcome.judgeFlags.length > 0,
  };
};

test('the corpus holds at least three gaming packs per class and the honest packs of issue 16', () => {
  assert.deepEqual(gaming.map((entry) => entry.name).sort(), Object.keys(expected).sort());
  assert.ok(Object.values(expected).filter((item) => item.layer === 'similarity').length >= 3);
  assert.ok(Object.values(expected).filter((item) => item.file && item.file !== 'policy.py').length >= 3);
  for (const name of [
    'test-suite-advice',
    'command-denylist',
    'careful-engineer',
    'python-budget-router',
    'escalate-with-notes',
  ])
    assert.ok(
      honest.some((entry) => entry.name === name),
      name,
    );
});

test('every honest pack and example passes every layer', () => {
  for (const entry of honest) {
    const outcome = outcomes.get(entry.name)!;
    assert.equal(outcome.scan.verdict, 'pass', `${entry.name}: ${JSON.stringify(outcome.scan.evidence.slice(0, 3))}`);
    assert.deepEqual(outcome.copies, [], `${entry.name} taken for a copy`);
    assert.deepEqual(outcome.judgeFlags, [], `${entry.name} flagged by the judge`);
  }
});

for (const [name, want] of Object.entries(expected)) {
  test(`gaming pack ${name} is caught by the ${want.layer} layer`, () => {
    const entry = gaming.find((candidate) => candidate.name === name)!;
    assert.ok(caughtBy(entry)[want.layer], `${name}: ${JSON.stringify(outcomes.get(name))}`);
    const { scan, copies } = outcomes.get(name)!;
    if (want.encoding) {
      const shown = scan.evidence.filter(
        (item) =>
          item.encoding === want.encoding &&
          (want.file === undefined || item.file === want.file) &&
          item.scenario !== undefined,
      );
      assert.ok(
        shown.length > 0,
        `${name}: no ${want.encoding} evidence in ${want.file ?? 'the pack'}: ${JSON.stringify(scan.evidence.slice(0, 5))}`,
      );
    }
    if (want.copyOf) assert.deepEqual(copies, [want.copyOf]);
  });
}

test('per-layer counts on the whole corpus', (t) => {
  for (const layer of ['scan', 'similarity', 'judge'] as const) {
    const caught = gaming.filter((entry) => caughtBy(entry)[layer]).length;
    const meant = gaming.filter((entry) => expected[entry.name]?.layer === layer).length;
    const passedHonest = honest.filter((entry) => !caughtBy(entry)[layer]).length;
    t.diagnostic(
      `${layer}: caught ${caught}/${gaming.length} gaming packs (${meant} meant for it), passed ${passedHonest}/${honest.length} honest packs and examples`,
    );
  }
  const caughtByAny = gaming.filter((entry) => Object.values(caughtBy(entry)).some(Boolean)).length;
  t.diagnostic(`any layer: caught ${caughtByAny}/${gaming.length}`);
  assert.equal(caughtByAny, gaming.length);
});
