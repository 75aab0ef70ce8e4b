import { test } from 'node:test';
import assert from 'node:assert/strict';
import { competenceScale, createCallCounter } from './model-drift.ts';
import { simulateChatCompletion, type FleetContext } from './simulate-completion.ts';
import { modelSolves } from './agent-behaviour.ts';
import { agentStart, hermesTools, scenario, scenarios, withoutFaults } from './testing/fixtures.ts';

test('competence falls linearly with the calls before, down to the floor; no drift, no change', () => {
  assert.equal(competenceScale(undefined, 1000), 1);
  assert.equal(competenceScale({ competenceLossPerCall: 0.01, floor: 0 }, 0), 1);
  assert.ok(Math.abs(competenceScale({ competenceLossPerCall: 0.01, floor: 0 }, 30) - 0.7) < 1e-12);
  assert.equal(competenceScale({ competenceLossPerCall: 0.01, floor: 0.4 }, 90), 0.4);
});

test('the call counter counts each model on its own, in order of arrival', () => {
  const count = createCallCounter();
  assert.deepEqual([count('a'), count('a'), count('b'), count('a')], [0, 1, 0, 2]);
});

test('a drifting model answers the same request worse after enough calls; a steady one never changes', () => {
  const modelId = 'glm-5.2';
  const target = scenario('csv-sales-report');
  const steady = withoutFaults();
  // A seed on which the model solves the scenario at full competence, but not at 20% of it.
  const seed = Array.from({ length: 1000 }, (_, s) => s).find(
    (s) =>
      modelSolves(s, steady.models.find((m) => m.id === modelId)!, target) &&
      !modelSolves(s, steady.models.find((m) => m.id === modelId)!, target, 0.2),
  );
  assert.ok(seed !== undefined);
  const body = { model: modelId, messages: agentStart(target), tools: hermesTools, seed };
  const drifting = {
    ...steady,
    models: steady.models.map((m) =>
      m.id === modelId ? { ...m, sim: { ...m.sim, drift: { competenceLossPerCall: 0.1, floor: 0 } } } : m,
    ),
  };
  const attempt = (fleet: FleetContext, countCall: (id: string) => number) => {
    const result = simulateChatCompletion(body, fleet, 1, undefined, countCall);
    assert.ok(result.ok);
    return JSON.parse(result.value.completion.choices[0].message.tool_calls![0]!.function.arguments).command as string;
  };
  const driftingCount = createCallCounter();
  const steadyCount = createCallCounter();
  const firstDrifting = attempt({ allowlist: drifting, scenarios }, driftingCount);
  const firstSteady = attempt({ allowlist: steady, scenarios }, steadyCount);
  assert.equal(firstDrifting, firstSteady, 'the first call is answered at full competence');
  for (let call = 1; call < 9; call++) attempt({ allowlist: drifting, scenarios }, driftingCount);
  for (let call = 1; call < 9; call++)
    assert.equal(attempt({ allowlist: steady, scenarios }, steadyCount), firstSteady);
  // The tenth call: 10% of the competence left, below the 20% this seed needs.
  assert.notEqual(attempt({ allowlist: drifting, scenarios }, driftingCount), firstSteady);
});
