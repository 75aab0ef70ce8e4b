import { test } from 'node:test';
import assert from 'node:assert/strict';
import { packHash } from '../packs/canonical-pack.ts';
import {
  comparePacks,
  containment,
  defaultContainmentThreshold,
  defaultNearCopyThreshold,
  findNearCopies,
  ncd,
  normalizedPackSource,
  normalizePolicyCode,
  packProfile,
} from './similarity.ts';
import { reachableFiles } from './reachable-files.ts';
import { anchorThresholds } from './similarity-anchors.ts';
import { byName, readCorpus } from './testing/corpus.ts';

const corpus = await readCorpus();
const honest = corpus.filter((entry) => entry.group !== 'gaming');
const withHash = (entries: typeof corpus) =>
  entries.map((entry) => ({ packHash: packHash(entry.pack), pack: entry.pack, name: entry.name }));

test('renaming, reformatting, re-quoting and new comments do not change the normal form', () => {
  const original = `import { definePolicy } from 'trl-policy-sdk';
// Pick the first model.
const models = ['glm-5.2', 'kimi-k3'];
export default definePolicy({ async complete(request, ctx) { return ctx.call(models[0]!, request, { maxTokens: 4_096, }); } });`;
  const disguised = `/* A brand-new policy */
import {
    definePolicy as build,
} from "trl-policy-sdk"

const pool = [
    "glm-5.2",
    "kimi-k3",
]
export default build({
    async complete(ask, env) {
        return env.call(pool[0]!, ask, { maxTokens: 4096 })
    },
})`;
  assert.equal(normalizePolicyCode(disguised), normalizePolicyCode(original));
  const normal = normalizePolicyCode(original);
  assert.match(normal, /"glm-5\.2"/);
  assert.match(normal, /\basync\b.*\breturn\b/);
  assert.doesNotMatch(normal, /Pick the first|models|request|ctx|trl-policy-sdk/);
});

test('different literals or structure do change it', () => {
  assert.notEqual(normalizePolicyCode(`f('a')`), normalizePolicyCode(`f('b')`));
  assert.notEqual(normalizePolicyCode(`if (a) b(); else c();`), normalizePolicyCode(`while (a) b(); c();`));
  assert.notEqual(normalizePolicyCode(`f(a.x, b)`), normalizePolicyCode(`f(a.y, b)`));
});

test('the normal form does not depend on the order names are declared in (issue 16)', () => {
  const one = `const first = 'glm-5.2';\nconst second = 'kimi-k3';\nexport default definePolicy({ complete: (r, c) => c.call(second, r) });`;
  const other = `const second = 'glm-5.2';\nconst first = 'kimi-k3';\nexport default definePolicy({ complete: (r, c) => c.call(first, r) });`;
  assert.equal(normalizePolicyCode(one), normalizePolicyCode(other));
});

test('only files reachable from the entry count: imports, Python modules, files named in strings', () => {
  const pack = {
    schema_version: 1 as const,
    files: {
      'SKILL.md': '# x',
      'policy.ts': "import { a } from './lib/a';\nimport data from './data.json' with { type: 'json' };",
      'lib/a.ts': "export * from '../packs/b.ts';",
      'b.ts': 'export const b = 1;',
      'data.json': '{}',
      'padding.ts': 'export const pad = 1;',
      'notes.txt': 'never read',
    },
  };
  assert.deepEqual(reachableFiles(pack), ['SKILL.md', 'b.ts', 'data.json', 'lib/a.ts', 'policy.ts']);
  const python = {
    schema_version: 1 as const,
    files: {
      'SKILL.md': '# x',
      'policy.py': "from helpers import pick\nimport rules\nopen('hints.txt')",
      'helpers.py': '',
      'rules.py': '',
      'hints.txt': '',
      'unused.py': '',
    },
  };
  assert.deepEqual(reachableFiles(python), ['SKILL.md', 'helpers.py', 'hints.txt', 'policy.py', 'rules.py']);
});

test('reordered and padded copies are caught by NCD or containment; the margin to honest pairs is wide', (t) => {
  const others = withHash(honest);
  let closestHonest = Infinity;
  let mostContained = 0;
  for (const entry of others) {
    for (const found of comparePacks(
      entry.pack,
      others.filter((other) => other.packHash !== entry.packHash),
    )) {
      closestHonest = Math.min(closestHonest, found.distance);
      mostContained = Math.max(mostContained, found.containment);
    }
  }
  t.diagnostic(
    `honest pairs: closest NCD ${closestHonest} (threshold ${defaultNearCopyThreshold}), highest containment ${mostContained} (threshold ${defaultContainmentThreshold})`,
  );
  assert.ok(closestHonest > defaultNearCopyThreshold + 0.15, String(closestHonest));
  assert.ok(mostContained < defaultContainmentThreshold - 0.15, String(mostContained));
  for (const [copy, original] of [
    ['renamed-copy', 'cost-cascade'],
    ['reordered-copy', 'category-router'],
    ['padded-copy', 'parallel-pick'],
    ['reordered-padded-copy', 'fallback-chain'],
  ] as const) {
    const found = findNearCopies(byName(corpus, copy).pack, others, defaultNearCopyThreshold);
    const names = found.map((entry) => others.find((other) => other.packHash === entry.packHash)!.name);
    t.diagnostic(
      `${copy}: ${found.map((entry, index) => `${names[index]} NCD ${entry.distance} containment ${entry.containment}`).join(', ')}`,
    );
    assert.deepEqual(names, [original], copy);
    assert.ok(
      found[0]!.distance < defaultNearCopyThreshold - 0.1 || found[0]!.containment > defaultContainmentThreshold + 0.15,
      copy,
    );
  }
  // The padding of reordered-padded-copy is imported: NCD alone would miss it, containment does not.
  const padded = packProfile(byName(corpus, 'reordered-padded-copy').pack);
  const original = packProfile(byName(corpus, 'fallback-chain').pack);
  assert.ok(ncd(padded.source, original.source) > defaultNearCopyThreshold);
  assert.ok(containment(padded, original) > defaultContainmentThreshold);
});

test('ncd: about 0 for a copy, high for unrelated text, symmetric and deterministic', () => {
  const a = normalizedPackSource(byName(corpus, 'cost-cascade').pack);
  const b = normalizedPackSource(byName(corpus, 'majority-vote').pack);
  assert.ok(ncd(a, a) < 0.05, String(ncd(a, a)));
  assert.ok(ncd(a, 'lorem ipsum dolor sit amet '.repeat(40)) > 0.9);
  assert.equal(ncd(a, b), ncd(b, a));
  assert.equal(ncd(a, b), ncd(a, b));
  assert.equal(ncd('', ''), 0);
  assert.equal(ncd('', a), 1);
});

test('the renamed copy of cost-cascade is found, and only cost-cascade', (t) => {
  const copy = byName(corpus, 'renamed-copy').pack;
  const others = withHash(honest);
  const found = findNearCopies(copy, others, defaultNearCopyThreshold);
  const names = found.map((entry) => others.find((other) => other.packHash === entry.packHash)!.name);
  t.diagnostic(`renamed-copy: ${found.map((entry, index) => `${names[index]} ${entry.distance}`).join(', ')}`);
  assert.deepEqual(names, ['cost-cascade']);
  assert.ok(found[0]!.distance < defaultNearCopyThreshold / 2, String(found[0]!.distance));
});

test('honest packs are not near copies of each other or of the examples', (t) => {
  const others = withHash(honest);
  let min = Infinity;
  let max = 0;
  for (const entry of others) {
    const rest = others.filter((other) => other.packHash !== entry.packHash);
    assert.deepEqual(findNearCopies(entry.pack, rest, defaultNearCopyThreshold), [], entry.name);
    for (const { distance } of findNearCopies(entry.pack, rest, Infinity)) {
      min = Math.min(min, distance);
      max = Math.max(max, distance);
    }
  }
  t.diagnostic(`honest pairs: min ${min}, max ${max}, threshold ${defaultNearCopyThreshold}`);
  assert.ok(min > defaultNearCopyThreshold + 0.15, `closest honest pair at ${min}`);
});

test('results are sorted by distance and include exact copies at 0', () => {
  const cascade = byName(corpus, 'cost-cascade').pack;
  const found = findNearCopies(
    cascade,
    withHash([byName(corpus, 'renamed-copy'), byName(corpus, 'cost-cascade'), byName(corpus, 'round-robin')]),
    1.5,
  );
  assert.equal(found.length, 3);
  assert.deepEqual(
    [...found].sort((a, b) => a.distance - b.distance),
    found,
  );
  assert.ok(found[0]!.distance < 0.05);
});

test('loop-rewritten copies (loops, names and function order changed) are caught by their anchors; honest pairs stay clear', (t) => {
  const others = withHash(honest);
  // How close an honest pair comes to both anchor thresholds at once (1 = at both).
  const reach = (found: { anchors: number; anchorPairs: number }) =>
    Math.min(
      found.anchors / anchorThresholds.minAnchorContainment,
      found.anchorPairs / anchorThresholds.minPairContainment,
    );
  let closest = { pair: '', anchors: 0, anchorPairs: 0, reach: 0 };
  for (const entry of others) {
    for (const found of comparePacks(
      entry.pack,
      others.filter((other) => other.packHash !== entry.packHash),
    )) {
      if (reach(found) > closest.reach)
        closest = {
          pair: `${entry.name} > ${others.find((other) => other.packHash === found.packHash)!.name}`,
          anchors: found.anchors,
          anchorPairs: found.anchorPairs,
          reach: reach(found),
        };
    }
  }
  t.diagnostic(
    `closest honest pair by anchors: ${closest.pair}: anchors ${closest.anchors} (threshold ${anchorThresholds.minAnchorContainment}), pairs ${closest.anchorPairs} (threshold ${anchorThresholds.minPairContainment})`,
  );
  assert.ok(closest.reach < 0.8, `honest pairs within 20% of both anchor thresholds: ${JSON.stringify(closest)}`);
  for (const [copy, original] of [
    ['loop-rewritten-panel', 'parallel-pick'],
    ['loop-rewritten-copy', 'category-router'],
    ['loop-rewritten-python-copy', 'sdk-cascade'],
  ] as const) {
    const found = findNearCopies(byName(corpus, copy).pack, others, defaultNearCopyThreshold);
    const names = found.map((entry) => others.find((other) => other.packHash === entry.packHash)!.name);
    t.diagnostic(
      `${copy}: ${found.map((entry, index) => `${names[index]} NCD ${entry.distance} containment ${entry.containment} anchors ${entry.anchors} pairs ${entry.anchorPairs}`).join(', ')}`,
    );
    assert.deepEqual(names, [original], copy);
    assert.ok(reach(found[0]!) >= 1.1, `${copy}: within 10% of the anchor thresholds`);
  }
  // The panel copy and the Python copy are the issue's case: NCD and 6-gram containment alone pass them.
  for (const [copy, original] of [
    ['loop-rewritten-panel', 'parallel-pick'],
    ['loop-rewritten-python-copy', 'sdk-cascade'],
  ] as const) {
    const [found] = comparePacks(byName(corpus, copy).pack, withHash([byName(corpus, original)]));
    assert.ok(found!.distance > defaultNearCopyThreshold && found!.containment < defaultContainmentThreshold, copy);
  }
});
