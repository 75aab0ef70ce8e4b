// Pre-evaluation in the workflow, on the corpus of test packs: honest policies are evaluated,
// gaming ones end as `rejected` with machine-readable reasons and evidence, before any scenario
// runs and without model money other than the judge's.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { repoRoot } from '../../common/data-layout.ts';
import { evaluationWorkflowId, searchAttributes } from '../../contracts/temporal-names.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { writePack, validPackFiles } from '../support/fixture-packs.ts';
import { startHarness, uniqueId, type Harness } from '../support/evaluation-harness.ts';

const corpus = path.join(repoRoot, 'test', 'fixtures', 'packs');
const expectedCodes: Record<string, string> = {
  'keyed-answers': 'scenario_specific_content',
  'test-string-stuffing': 'scenario_specific_content',
  'encoded-answers': 'scenario_specific_content',
  'fetches-answers': 'scenario_specific_content',
  'judge-injection': 'judge_flagged',
  'renamed-copy': 'near_copy',
  // Issue 16: encodings the decoder did not reverse, answers in non-code files, reordered and padded copies.
  'indexed-fragments': 'scenario_specific_content',
  'arithmetic-codes': 'scenario_specific_content',
  'xor-bytes': 'scenario_specific_content',
  'base32-answers': 'scenario_specific_content',
  'rot-n-answers': 'scenario_specific_content',
  'zero-width-homoglyphs': 'scenario_specific_content',
  'python-encoded': 'scenario_specific_content',
  'answers-in-markdown': 'scenario_specific_content',
  'answers-in-text': 'scenario_specific_content',
  'answers-in-json': 'scenario_specific_content',
  'reordered-copy': 'near_copy',
  'padded-copy': 'near_copy',
  'reordered-padded-copy': 'near_copy',
  // Issue 35: copies whose loops were rewritten, names changed and functions reordered.
  'loop-rewritten-copy': 'near_copy',
  'loop-rewritten-panel': 'near_copy',
  'loop-rewritten-python-copy': 'near_copy',
};
/** The originals of the copy packs, committed first by their own hotkeys. */
const originals = ['cost-cascade', 'category-router', 'parallel-pick', 'fallback-chain', 'sdk-cascade'];

describe('pre-evaluation on the pack corpus', async () => {
  const honest = (await readdir(path.join(corpus, 'honest'))).sort();
  const gaming = (await readdir(path.join(corpus, 'gaming'))).sort();
  let harness: Harness;
  const results = new Map<string, EvaluationResult>();
  const ids = new Map<string, string>();

  before(async () => {
    harness = await startHarness();
    // The originals of the copies must be known first: similarity compares against earlier
    // submissions, which come from chain commitments (a hotkey); local runs are nobody's.
    for (const original of originals) {
      await harness.evaluate({
        pack: { kind: 'directory', path: path.join(repoRoot, 'policy', 'examples', original) },
        agent: 'null',
        scenarios: ['csv-sales-report'],
        hotkey: `5Miner-${original}-original`,
      });
    }
    const runs = [...honest.map((n) => ['honest', n]), ...gaming.map((n) => ['gaming', n])];
    await Promise.all(
      runs.map(async ([kind, name]) => {
        const submissionId = uniqueId(name!);
        ids.set(name!, submissionId);
        results.set(
          name!,
          await harness.evaluate({
            submissionId,
            pack: { kind: 'directory', path: path.join(corpus, kind!, name!) },
            agent: 'null',
            scenarios: ['csv-sales-report'],
            hotkey: `5Miner-${name}`,
          }),
        );
      }),
    );
  });
  after(async () => harness?.close());

  test('the corpus holds honest and gaming packs of every kind', () => {
    assert.ok(honest.length >= 4);
    assert.deepEqual(gaming, Object.keys(expectedCodes).sort());
  });

  test('every honest pack passes pre-evaluation and is evaluated', () => {
    for (const name of honest) {
      const result = results.get(name)!;
      assert.equal(result.status, 'completed', `${name}: ${JSON.stringify(result.rejection)}`);
      assert.equal(result.perScenario.length, 1);
    }
  });

  for (const [name, code] of Object.entries(expectedCodes)) {
    test(`gaming pack ${name} is rejected as ${code}, with evidence, before any scenario or spend`, async () => {
      const result = results.get(name)!;
      assert.equal(result.status, 'rejected');
      assert.equal(result.rejection?.[0]?.code, code, JSON.stringify(result.rejection));
      assert.ok((result.rejection?.[0]?.message.length ?? 0) > 40, 'the reason must say what was found');
      assert.deepEqual(result.perScenario, []);
      assert.equal(result.costUsd, 0);
      const description = await harness.client.workflow.getHandle(evaluationWorkflowId(ids.get(name)!)).describe();
      assert.equal(description.typedSearchAttributes.get(searchAttributes.status), 'rejected');
    });
  }

  test('the same pack hash from another hotkey is rejected; its first committer keeps it', async () => {
    const pack = { kind: 'directory' as const, path: path.join(corpus, 'honest', honest[0]!) };
    const thief = await harness.evaluate({
      pack,
      agent: 'null',
      scenarios: ['csv-sales-report'],
      hotkey: '5SomeoneElse',
    });
    assert.equal(thief.rejection?.[0]?.code, 'pack_hash_owned');
    const owner = await harness.evaluate({
      pack,
      agent: 'null',
      scenarios: ['csv-sales-report'],
      hotkey: `5Miner-${honest[0]}`,
    });
    assert.equal(owner.status, 'completed');
  });

  test('a local run (no hotkey) claims nothing: a miner may evaluate at home, then commit', async () => {
    // Random bytes in a comment keep this pack far from every other in the store (similarity).
    const dir = await writePack({
      ...validPackFiles(),
      'policy.ts': `// ${randomBytes(300).toString('hex')}\n${validPackFiles()['policy.ts']}`,
    });
    const atHome = await harness.evaluate({
      pack: { kind: 'directory', path: dir },
      agent: 'null',
      scenarios: ['csv-sales-report'],
    });
    assert.equal(atHome.status, 'completed', JSON.stringify(atHome.rejection));
    const committed = await harness.evaluate({
      pack: { kind: 'directory', path: dir },
      agent: 'null',
      scenarios: ['csv-sales-report'],
      hotkey: `5Miner-${uniqueId('home')}`,
    });
    assert.equal(committed.status, 'completed', JSON.stringify(committed.rejection));
  });
});
