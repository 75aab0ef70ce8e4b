// Calibration of the provenance check (issue 36): every honest example pack (policy/examples/*)
// and every honest fixture pack (test/fixtures/packs/honest/*) runs csv-sales-report through
// Hermes on the sim fleet. None may be a provenance_violation (0 false positives), and every tool
// call Hermes received must be a model's: action coverage 1. Prints each pack's action and word
// coverage (the figures of the closing note). Slow: one Hermes evaluation per pack.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../common/data-layout.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { startHarness, type Harness } from '../support/evaluation-harness.ts';

const folders = (root: string) =>
  readdirSync(root)
    .filter((name) => statSync(path.join(root, name)).isDirectory())
    .map((name) => path.join(root, name));
const honestPacks = [
  ...folders(path.join(repoRoot, 'policy', 'examples')),
  ...folders(path.join(repoRoot, 'test', 'fixtures', 'packs', 'honest')),
];

describe('provenance calibration on the honest corpus through Hermes', () => {
  let harness: Harness;
  const results = new Map<string, EvaluationResult>();

  before(async () => {
    harness = await startHarness();
    // A few at a time: each is a Hermes run in its own sandboxes.
    const queue = [...honestPacks];
    const lane = async () => {
      for (let dir = queue.shift(); dir; dir = queue.shift()) {
        const name = path.relative(repoRoot, dir);
        results.set(
          name,
          await harness.evaluate({
            pack: { kind: 'directory', path: dir },
            agent: 'hermes',
            scenarios: ['csv-sales-report'],
            seed: 1,
          }),
        );
      }
    };
    await Promise.all([lane(), lane(), lane()]);
  });
  after(async () => harness?.close());

  test('no honest pack is a provenance violation; every action Hermes received was a model’s', () => {
    const rows: string[] = [];
    const problems: string[] = [];
    let actions = 0;
    let coveredActions = 0;
    for (const [name, result] of [...results.entries()].sort()) {
      if (result.status === 'rejected') {
        rows.push(`${name}\trejected before running: ${result.rejection?.map((r) => r.code).join(', ')}`);
        continue;
      }
      for (const scenario of result.perScenario) {
        const p = scenario.provenance;
        actions += p?.actions ?? 0;
        coveredActions += p?.coveredActions ?? 0;
        rows.push(
          `${name}\t${scenario.status}\tactions ${p?.coveredActions}/${p?.actions} (${p?.actionCoverage})\twords ${p?.coveredUnits}/${p?.units} (${p?.coverage})`,
        );
        if (scenario.status === 'provenance_violation') problems.push(`${name}: ${scenario.error}`);
      }
    }
    console.log(`provenance calibration (csv-sales-report, Hermes, seed 1):\n${rows.join('\n')}`);
    console.log(`all packs: ${coveredActions}/${actions} actions covered`);
    assert.deepEqual(problems, [], 'false positives');
    assert.equal(coveredActions, actions);
  });
});
