import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAllowlist, parseAllowlist, callCostUsd } from './allowlist.ts';
import { listScenarioFolders } from '../../catalog/list-scenarios.ts';
import { loadScenario } from '../../catalog/load-scenario.ts';

test('the allowlist has eight models with the known public prices', () => {
  const { models } = loadAllowlist();
  assert.equal(models.length, 8);
  const qwen = models.find((m) => m.id === 'qwen3.6-35b-a3b')!;
  assert.deepEqual(qwen.pricing, { inputUsdPerMillion: 0.045, cachedInputUsdPerMillion: 0.015, outputUsdPerMillion: 0.3 });
  const glm = models.find((m) => m.id === 'glm-5.2')!;
  assert.deepEqual(glm.pricing, { inputUsdPerMillion: 0.68, cachedInputUsdPerMillion: 0.18, outputUsdPerMillion: 1.5 });
  assert.equal(models.filter((m) => m.operatorDefault).length, 6, 'the six placeholder models are marked for the operator');
});

test("the sim profiles cover every category of the active scenarios", async () => {
  const categories = new Set<string>();
  for (const scenario of await listScenarioFolders()) categories.add((await loadScenario(scenario.dir)).config.metadata.category);
  for (const model of loadAllowlist().models) {
    for (const category of categories) assert.ok(category in model.sim.competence.byCategory, `${model.id} has no competence for ${category}`);
  }
});

test('a bad allowlist names the field', () => {
  assert.throws(() => parseAllowlist(JSON.stringify({ version: 1, models: [{ id: 'X Y' }] })), /field "models.0.id"/);
  assert.throws(() => parseAllowlist('{'), /not JSON/);
  const one = loadAllowlist().models[0]!;
  assert.throws(() => parseAllowlist(JSON.stringify({ version: 1, models: [one, one] })), /unique/);
});

test('call cost uses cached and uncached input prices', () => {
  const glm = loadAllowlist().models.find((m) => m.id === 'glm-5.2')!;
  assert.equal(callCostUsd(glm, { promptTokens: 1_000_000, cachedPromptTokens: 0, completionTokens: 0 }), 0.68);
  assert.ok(Math.abs(callCostUsd(glm, { promptTokens: 1_000_000, cachedPromptTokens: 1_000_000, completionTokens: 1_000_000 }) - 1.68) < 1e-12);
});
