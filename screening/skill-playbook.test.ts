import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { repoRoot } from '../common/data-layout.ts';
import { readPackDirectory } from '../packs/read-pack.ts';
import { buildScenarioFingerprints } from './scenario-fingerprints.ts';
import { playbookMatches, playbookRejection } from './skill-playbook.ts';
import { readCorpus } from './testing/corpus.ts';

const fingerprints = await buildScenarioFingerprints();

test('a SKILL.md of per-scenario hints, paraphrased, is rejected with the matched pairs as evidence', async () => {
  const pack = await readPackDirectory(path.join(repoRoot, 'test', 'fixtures', 'packs', 'coaching', 'skill-playbook'));
  const rejection = playbookRejection(pack, fingerprints);
  assert.equal(rejection?.code, 'scenario_playbook');
  assert.match(rejection!.message, /csv-sales-report ← SKILL\.md: .*top_product/);
  assert.match(rejection!.message, /semver-range-matcher ← SKILL\.md: .*prereleases/);
});

test('hints for one scenario alone are not a playbook; code files are the static scan’s, not read here', async () => {
  const one = {
    schema_version: 1 as const,
    files: { 'SKILL.md': 'Semver: `^0.x` pins the minor; prereleases match the same MAJOR.MINOR.PATCH tuple.' },
  };
  assert.equal(playbookMatches(one, fingerprints).length, 1);
  assert.equal(playbookRejection(one, fingerprints), undefined);
  const code = {
    schema_version: 1 as const,
    files: { 'notes.ts': 'top_product region prereleases semver tuple MAJOR.MINOR.PATCH' },
  };
  assert.deepEqual(playbookMatches(code, fingerprints), []);
});

test('no honest pack, example or gaming fixture of the corpus is taken for a playbook', async () => {
  const flagged = (await readCorpus())
    .filter((entry) => playbookRejection(entry.pack, fingerprints) !== undefined)
    .map((entry) => entry.name);
  assert.deepEqual(flagged, []);
});
