import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTaskToml, loadScenario } from './load-scenario.ts';
import { listScenarioFolders, selectScenarios } from './list-scenarios.ts';
import { ScenarioError } from './scenario-error.ts';

const valid = `
version = "1.0"
agent_outputs = ["/app/out"]
[metadata]
category = "sql"
difficulty = "hard"
[agent]
timeout_sec = 600
[verifier]
timeout_sec = 120
[environment]
cpus = 1
memory_mb = 1024
`;

test('a valid task.toml parses with defaults filled in', () => {
  const config = parseTaskToml('s', valid);
  assert.equal(config.metadata.difficulty, 'hard');
  assert.equal(config.environment.allow_internet, false);
  assert.deepEqual(config.metadata.tags, []);
});

test('task.toml errors name the scenario and the field', () => {
  assert.throws(() => parseTaskToml('s', valid.replace('"hard"', '"brutal"')), /scenario s: task.toml field "metadata.difficulty"/);
  assert.throws(() => parseTaskToml('s', valid.replace('["/app/out"]', '["relative/out"]')), /field "agent_outputs.0": must be an absolute path/);
  assert.throws(() => parseTaskToml('s', valid + '\nallow_internet = true'), ScenarioError);
  assert.throws(() => parseTaskToml('s', valid.replace('[environment]', '[environment]\nallow_internet = true')), /allow_internet must be false/);
  assert.throws(() => parseTaskToml('s', 'not = toml = really'), /not valid TOML/);
});

test('every scenario in the repository loads', async () => {
  const all = await listScenarioFolders();
  assert.ok(all.length >= 3);
  for (const scenario of all) {
    const loaded = await loadScenario(scenario.dir);
    assert.ok(loaded.instruction.length > 50, `${scenario.name} has a near-empty instruction`);
  }
});

test('unknown scenario names are refused with the available ones listed', async () => {
  await assert.rejects(selectScenarios(['no-such-scenario']), /no such scenario; available: .*csv-sales-report/);
});
