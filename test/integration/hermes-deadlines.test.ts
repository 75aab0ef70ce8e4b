// Hermes against its deadlines: an agent that never finishes is stopped at its deadline with its
// partial outputs verified and its turn log kept; a policy that stops answering ends the run as
// policy_error at the agent's deadline, not at the (longer) per-request timeout.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '../../common/data-layout.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { startHarness, type Harness } from '../support/evaluation-harness.ts';

const fixtures = path.join(repoRoot, 'test', 'fixtures');

describe('Hermes deadlines', () => {
  let harness: Harness;
  let sleepy: EvaluationResult;
  let silent: EvaluationResult;

  before(async () => {
    // The sim fleet of this worker knows the fixture scenarios.
    process.env.TRL_SIM_SCENARIOS_DIR = path.join(fixtures, 'scenarios');
    harness = await startHarness();
    const base = {
      scenariosDir: path.join(fixtures, 'scenarios'),
      scenarios: ['hermes-sleepy'],
      agent: 'hermes' as const,
    };
    [sleepy, silent] = await Promise.all([
      harness.evaluate({
        ...base,
        pack: { kind: 'directory', path: path.join(repoRoot, 'policy', 'examples', 'single-model') },
      }),
      harness.evaluate({ ...base, pack: { kind: 'directory', path: path.join(fixtures, 'policies', 'hang') } }),
    ]);
  });
  after(async () => {
    delete process.env.TRL_SIM_SCENARIOS_DIR;
    await harness?.close();
  });

  test('an agent that never finishes is stopped at its deadline; partial outputs are verified', () => {
    const scenario = sleepy.perScenario[0]!;
    assert.equal(scenario.status, 'agent_timeout', scenario.error);
    assert.equal(scenario.testsPassed, 1);
    assert.equal(scenario.testsTotal, 2);
    assert.ok(
      scenario.agentWallMs >= 45_000 && scenario.agentWallMs < 60_000,
      `agent ran ${scenario.agentWallMs} ms against a 45 s deadline`,
    );
  });

  test('the turn log survives the kill and joins the model-call log by request id', async () => {
    const scenario = sleepy.perScenario[0]!;
    const turns = (await readFile(scenario.artifacts.turnLog!.path, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const calls = (await readFile(scenario.artifacts.modelCallLog!.path, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.ok(turns.length >= 1);
    assert.ok(
      turns[0].response?.tool_calls?.length >= 1,
      'the first turn should carry the tool call that started the long command',
    );
    const turnIds = new Set(turns.map((t: { requestId: string }) => t.requestId));
    assert.ok(calls.length >= 1 && calls.every((c: { requestId: string }) => turnIds.has(c.requestId)));
  });

  test('a policy that stops answering ends the run as policy_error at the deadline, not later', () => {
    const scenario = silent.perScenario[0]!;
    assert.equal(scenario.status, 'policy_error');
    assert.ok(scenario.policyFaults?.some((f) => f.kind === 'timeout'));
    assert.ok(
      scenario.agentWallMs < 60_000,
      `the run took ${scenario.agentWallMs} ms; the policy request timeout is 300 s`,
    );
    assert.equal(scenario.testsPassed, 0);
  });
});
