// An agent whose outputs pass every bound (an output over the archive limit, 30 000 empty files, a
// name with a newline) through a real evaluation: the scenario is verified on what fits, its notes
// are few and small, and the worker carries on (it used to die of an uncaught TarTooLargeError).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '../../common/data-layout.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { startHarness, uniqueId, type Harness } from '../support/evaluation-harness.ts';
import { examplePackDir } from '../support/fixture-packs.ts';

const fixtures = path.join(repoRoot, 'test', 'fixtures', 'scenarios');

describe('oversized outputs', () => {
  let harness: Harness;
  let result: EvaluationResult;

  before(async () => {
    harness = await startHarness();
    result = await harness.evaluate({
      submissionId: uniqueId('oversized'),
      pack: { kind: 'directory', path: examplePackDir },
      scenariosDir: fixtures,
      agent: 'oracle',
      scenarios: ['oversized-outputs'],
    });
  });
  after(async () => harness?.close());

  test('the scenario is verified on the outputs that fit, once, and the evaluation completes', async () => {
    const scenario = result.perScenario.find((s) => s.name === 'oversized-outputs');
    assert.ok(scenario);
    assert.equal(scenario.status, 'completed', scenario.error);
    assert.equal(scenario.testsPassed, scenario.testsTotal, 'the fixture tests saw something past a bound');
    assert.equal(result.status, 'completed');
    const agentLog = await readFile(scenario.artifacts.agentLog!.path, 'utf8');
    assert.match(agentLog, /\/app\/bulk: larger than the \d+-byte output limit; not copied/);
    assert.match(agentLog, /\/app\/many: more than the 20000-entry output limit; not copied/);
    assert.match(agentLog, /"out\/evil\\nname": control characters in the name; dropped/);
    assert.ok(Buffer.byteLength(JSON.stringify(result)) < 256 * 1024);
  });
});
