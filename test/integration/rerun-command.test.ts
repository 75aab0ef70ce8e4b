// `trl rerun --failed`: one scenario of a run ends infra_error (its verifier crashes); after the
// verifier is fixed, the rerun runs exactly that scenario, reuses the other, and totals both.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cp, mkdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot, runDir, testDataDir } from '../../common/data-layout.ts';
import { evaluationWorkflowId, searchAttributes } from '../../contracts/temporal-names.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { startEvaluation } from '../../cli/client/start-evaluation.ts';
import { planFor } from '../../cli/commands/rerun-command.ts';
import type { RerunPlan } from '../../cli/client/rerun-plan.ts';
import { startHarness, uniqueId, type Harness } from '../support/evaluation-harness.ts';
import { examplePackDir } from '../support/fixture-packs.ts';

const fixtures = path.join(repoRoot, 'test', 'fixtures', 'scenarios');
const run = promisify(execFile);

describe('trl rerun --failed', () => {
  let harness: Harness;
  let scenariosDir: string;
  let original: EvaluationResult;
  let plan: RerunPlan;
  let rerun: EvaluationResult;
  const submissionId = uniqueId('rerun');
  const workflowId = evaluationWorkflowId(submissionId);

  before(async () => {
    harness = await startHarness();
    scenariosDir = path.join(testDataDir, `rerun-scenarios-${submissionId}`);
    await mkdir(scenariosDir, { recursive: true });
    for (const name of ['crashing-verifier', 'hostile-outputs'])
      await cp(path.join(fixtures, name), path.join(scenariosDir, name), { recursive: true });
    const input = {
      submissionId,
      pack: { kind: 'directory' as const, path: examplePackDir },
      scenariosDir,
      agent: 'oracle' as const,
      scenarios: ['crashing-verifier', 'hostile-outputs'],
    };
    original = await harness.evaluate(input);
    // The verifier is fixed: the crashed scenario now has a working test.sh.
    await cp(
      path.join(fixtures, 'hostile-outputs', 'tests', 'test.sh'),
      path.join(scenariosDir, 'crashing-verifier', 'tests', 'test.sh'),
    );
    plan = await planFor(harness.client, workflowId, { scenarios: [], failed: true });
    rerun = await (await startEvaluation(harness.client, plan.input, harness.taskQueue)).result();
  });
  after(async () => {
    if (scenariosDir) await rm(scenariosDir, { recursive: true, force: true });
    await harness?.close();
  });

  const scenario = (result: EvaluationResult, name: string) => {
    const found = result.perScenario.find((s) => s.name === name);
    assert.ok(found, `no result for ${name}`);
    return found;
  };

  test('the original is incomplete: one verifier crashed', () => {
    assert.equal(original.status, 'incomplete');
    assert.equal(scenario(original, 'crashing-verifier').status, 'infra_error');
    assert.equal(scenario(original, 'hostile-outputs').status, 'completed');
    assert.match(scenario(original, 'hostile-outputs').scenarioHash ?? '', /^[0-9a-f]{64}$/);
  });

  test('the plan runs exactly the failed scenario and offers the other for reuse', () => {
    assert.deepEqual(plan.run, ['crashing-verifier']);
    assert.deepEqual(plan.reused, ['hostile-outputs']);
    assert.equal(plan.input.rerunOf, workflowId);
  });

  test('the rerun ran only that scenario, reused the other, and its totals are both', () => {
    const fixed = scenario(rerun, 'crashing-verifier');
    const reused = scenario(rerun, 'hostile-outputs');
    assert.equal(fixed.status, 'completed', fixed.error);
    assert.equal(fixed.reusedFrom, undefined);
    assert.equal(fixed.testsPassed, 1);
    assert.equal(reused.reusedFrom, workflowId);
    assert.deepEqual(reused, { ...scenario(original, 'hostile-outputs'), reusedFrom: workflowId });
    assert.equal(rerun.status, 'completed');
    assert.equal(rerun.testsPassed, reused.testsPassed + fixed.testsPassed);
    assert.equal(rerun.testsTotal, reused.testsTotal + fixed.testsTotal);
    // Nothing of the reused scenario ran in the rerun: no folder of its own.
    assert.ok(existsSync(path.join(runDir(rerun.workflowId), 'scenarios', 'crashing-verifier')));
    assert.ok(!existsSync(path.join(runDir(rerun.workflowId), 'scenarios', 'hostile-outputs')));
  });

  test('the rerun is linked to the original: search attribute and memo', async () => {
    const description = await harness.client.workflow.getHandle(rerun.workflowId).describe();
    assert.equal(description.typedSearchAttributes.get(searchAttributes.rerunOf), workflowId);
    assert.deepEqual((description.memo as { rerun?: unknown }).rerun, {
      of: workflowId,
      reusedScenarios: ['hostile-outputs'],
    });
  });

  test('an evaluation id that already exists is refused with a message naming rerun', async () => {
    await assert.rejects(
      startEvaluation(
        harness.client,
        { submissionId, pack: { kind: 'directory', path: examplePackDir }, agent: 'null' },
        harness.taskQueue,
      ),
      (error: Error) => error.name === 'UsageError' && error.message.includes(`trl rerun ${workflowId}`),
    );
  });

  test('trl show names the reused scenario and every artifact', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', path.join(repoRoot, 'cli', 'main.ts'), 'show', rerun.workflowId],
      { cwd: repoRoot },
    );
    assert.match(stdout, new RegExp(`hostile-outputs: \\(reused from ${workflowId}\\)`));
    assert.match(stdout, /verifierReport\s+\S+crashing-verifier\/verifier-attempt-1\/ctrf\.json/);
  });
});
