// An agent that fills its container's disk past the budget: stopped within seconds, its outputs are
// not collected, so the scenario scores as no output with a note (the policy's failure); the
// evaluation completes and the worker carries on.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { EvaluationResult } from '../../contracts/results.ts';
import type { Harness } from '../support/evaluation-harness.ts';

const budgetBytes = 64 * 1024 * 1024;

describe('the agent disk budget', () => {
  let harness: Harness;
  let result: EvaluationResult;

  before(async () => {
    // Read when the sandbox modules load: set before the harness (and the worker) is imported.
    process.env.TRL_AGENT_DISK_BUDGET_BYTES = String(budgetBytes);
    const { repoRoot } = await import('../../common/data-layout.ts');
    const { startHarness, uniqueId } = await import('../support/evaluation-harness.ts');
    const { examplePackDir } = await import('../support/fixture-packs.ts');
    harness = await startHarness();
    result = await harness.evaluate({
      submissionId: uniqueId('disk-budget'),
      pack: { kind: 'directory', path: examplePackDir },
      scenariosDir: path.join(repoRoot, 'test', 'fixtures', 'scenarios'),
      agent: 'oracle',
      scenarios: ['disk-filler'],
    });
  });
  after(async () => harness?.close());

  test('past the budget the agent is stopped, scored as no output with a note, and the evaluation completes', async () => {
    const scenario = result.perScenario.find((s) => s.name === 'disk-filler');
    assert.ok(scenario);
    assert.notEqual(scenario.status, 'infra_error', scenario.error);
    assert.equal(scenario.testsPassed, 0);
    assert.ok(scenario.agentWallMs < 60_000, `the agent ran ${scenario.agentWallMs} ms; it waits 100 s unless stopped`);
    assert.equal(result.status, 'completed');
    const agentLog = await readFile(scenario.artifacts.agentLog!.path, 'utf8');
    assert.match(
      agentLog,
      new RegExp(`outputs not collected: the agent wrote \\d+ bytes, over the ${budgetBytes}-byte disk budget`),
    );
  });
});
