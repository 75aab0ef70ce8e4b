import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadSimScenarios } from '../simfleet/scenario-recognition.ts';
import { play, readSkill, type Variant } from './realistic-play.ts';

const scenarios = await loadSimScenarios();
const bare: Variant = {
  name: 'bare',
  writer: 'glm-5.3-flash',
  skill: readSkill('policy/examples/pin-glm-flash/SKILL.md'),
};

test('a played conversation is a function of variant, scenario and seed, and names its last attempt', () => {
  const scenario = scenarios.find((s) => s.name === 'csv-sales-report')!;
  const first = play(bare, scenario, 3, scenarios);
  assert.deepEqual(play(bare, scenario, 3, scenarios), first);
  assert.ok(first.turns >= 10 && first.turns <= 60, `turns ${first.turns}`);
  assert.notEqual(first.attempt, 'none');
  assert.equal(first.solved, first.attempt === 'solve');
});

test('what the variant sends moves outcomes: hidden solution lines solve more, a cut instruction less', () => {
  const coached: Variant = {
    ...bare,
    name: 'coached',
    system: (s) => `Reference notes:\n${(s.hiddenLines ?? []).slice(0, 8).join('\n')}`,
  };
  const cut: Variant = { ...bare, name: 'cut', cutInstruction: true };
  const solved = (variant: Variant) => {
    let count = 0;
    for (const scenario of scenarios)
      for (let seed = 0; seed < 3; seed++) if (play(variant, scenario, seed, scenarios).solved) count++;
    return count;
  };
  const base = solved(bare);
  assert.ok(solved(coached) > base, 'coaching gains');
  assert.ok(solved(cut) < base, 'a cut instruction loses');
});
