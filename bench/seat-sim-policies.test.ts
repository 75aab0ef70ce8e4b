import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drawEvaluation, policyLogits, type ScenarioProfile } from './seat-sim-policies.ts';
import { SeededRandom } from '../scoring/seeded-random.ts';
import type { ModelEntry } from '../gateway/catalog/allowlist.ts';

test("an evaluation draw is reproducible and within each scenario's test count", () => {
  const scenarios: ScenarioProfile[] = [
    { name: 'one', category: 'git', difficulty: 'easy', testsTotal: 10 },
    { name: 'two', category: 'sql', difficulty: 'hard', testsTotal: 7 },
  ];
  const model = {
    id: 'm',
    sim: { competence: { base: 0.8, byDifficulty: { easy: 1, medium: 0.9, hard: 0.5 }, byCategory: {} } },
  } as unknown as ModelEntry;
  const logits = policyLogits(model, scenarios);
  const draw = () =>
    drawEvaluation(
      new SeededRandom(5n),
      scenarios,
      logits,
      new Float64Array(2),
      { sharedSd: 0.5, runSd: 1 },
      { packHash: 'p', workflowId: 'w' },
    );
  assert.deepEqual(draw(), draw());
  const evaluation = draw();
  assert.equal(evaluation.testsTotal, 17);
  for (const [index, score] of evaluation.perScenario.entries())
    assert.ok(score.testsPassed >= 0 && score.testsPassed <= scenarios[index]!.testsTotal);
});
