import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countPythonTests, drawEvaluation, policyLogits, type ScenarioProfile } from './seat-sim-policies.ts';
import { SeededRandom } from '../seat/seeded-random.ts';
import type { ModelEntry } from '../models/allowlist.ts';

test('plain test functions count once each, helpers and classes not at all', () => {
  const source = ['import pytest', 'def helper(): pass', 'def test_a(): pass', 'class TestGroup:', '    def test_b(self): pass', 'async def test_c(): pass'].join('\n');
  assert.equal(countPythonTests(source), 3);
});

test('parametrize lists multiply, tuples and strings with commas included', () => {
  const source = [
    '@pytest.mark.parametrize("a,b", [(1, 2), (3, 4), (5, [6, 7])])',
    'def test_pairs(a, b): pass',
    '',
    "@pytest.mark.parametrize('text', ['x,y', \"z\", 'it\\'s'])",
    '@pytest.mark.parametrize("n", (1, 2))',
    'def test_grid(text, n): pass',
    '',
    '@pytest.mark.parametrize(',
    '    "db",',
    '    ["shipped", "variant"],',
    ')',
    'def test_multiline(db): pass',
  ].join('\n');
  assert.equal(countPythonTests(source), 3 + 3 * 2 + 2);
});

test('an evaluation draw is reproducible and within each scenario\'s test count', () => {
  const scenarios: ScenarioProfile[] = [
    { name: 'one', category: 'git', difficulty: 'easy', testsTotal: 10 },
    { name: 'two', category: 'sql', difficulty: 'hard', testsTotal: 7 },
  ];
  const model = { id: 'm', sim: { competence: { base: 0.8, byDifficulty: { easy: 1, medium: 0.9, hard: 0.5 }, byCategory: {} } } } as unknown as ModelEntry;
  const logits = policyLogits(model, scenarios);
  const draw = () => drawEvaluation(new SeededRandom(5n), scenarios, logits, new Float64Array(2), { sharedSd: 0.5, runSd: 1 }, { packHash: 'p', workflowId: 'w' });
  assert.deepEqual(draw(), draw());
  const evaluation = draw();
  assert.equal(evaluation.testsTotal, 17);
  for (const [index, score] of evaluation.perScenario.entries()) assert.ok(score.testsPassed >= 0 && score.testsPassed <= scenarios[index]!.testsTotal);
});
