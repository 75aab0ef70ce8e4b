// `trl rescore`: after a verifier change, today's verifier runs over the stored agent outputs in a
// fresh container; the agent does not run again and the counts follow the new tests.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, cp, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { repoRoot, runDir, testDataDir } from '../../common/data-layout.ts';
import { evaluationWorkflowId } from '../../contracts/temporal-names.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { startEvaluation } from '../../cli/client/start-evaluation.ts';
import { planRescore, rerunSubmissionId } from '../../cli/client/rerun-plan.ts';
import { originalSubmission } from '../../cli/commands/rerun-command.ts';
import { renderComparison } from '../../cli/commands/rescore-command.ts';
import { startHarness, uniqueId, type Harness } from '../support/evaluation-harness.ts';
import { examplePackDir } from '../support/fixture-packs.ts';

const fixtures = path.join(repoRoot, 'test', 'fixtures', 'scenarios');

describe('trl rescore', () => {
  let harness: Harness;
  let scenariosDir: string;
  let original: EvaluationResult;
  let rescored: EvaluationResult;
  const submissionId = uniqueId('rescore');
  const workflowId = evaluationWorkflowId(submissionId);

  before(async () => {
    // Every verification starts its container: this file checks the verifiers themselves.
    harness = await startHarness({ verifierCache: false });
    scenariosDir = path.join(testDataDir, `rescore-scenarios-${submissionId}`);
    await mkdir(scenariosDir, { recursive: true });
    await cp(path.join(fixtures, 'hostile-outputs'), path.join(scenariosDir, 'hostile-outputs'), { recursive: true });
    original = await harness.evaluate({
      submissionId,
      pack: { kind: 'directory', path: examplePackDir },
      scenariosDir,
      agent: 'oracle',
      scenarios: ['hostile-outputs'],
    });
    // The verifier changes: one more hidden test, which the stored outputs fail.
    await appendFile(
      path.join(scenariosDir, 'hostile-outputs', 'tests', 'test_outputs.py'),
      '\n\ndef test_added_after_the_run():\n    assert False\n',
    );
    const submission = await originalSubmission(harness.client, workflowId);
    const plan = planRescore(
      { workflowId, submission, result: original },
      [],
      rerunSubmissionId(submissionId, new Date(), randomBytes(3).toString('hex'), 'rescore'),
    );
    assert.deepEqual(plan.rescored, ['hostile-outputs']);
    assert.deepEqual(plan.run, []);
    rescored = await (await startEvaluation(harness.client, plan.input, harness.taskQueue)).result();
  });
  after(async () => {
    if (scenariosDir) await rm(scenariosDir, { recursive: true, force: true });
    await harness?.close();
  });

  test("today's verifier counts the stored outputs: one more test, not passed", () => {
    const before = original.perScenario[0]!;
    const now = rescored.perScenario[0]!;
    assert.equal(before.status, 'completed');
    assert.equal(now.status, 'completed', now.error);
    assert.equal(now.testsTotal, before.testsTotal + 1);
    assert.equal(now.testsPassed, before.testsPassed);
    assert.equal(now.reusedFrom, workflowId);
    assert.equal(
      now.artifacts.agentOutputs?.path,
      before.artifacts.agentOutputs?.path,
      'the stored outputs were verified',
    );
    assert.notEqual(now.artifacts.verifierReport?.path, before.artifacts.verifierReport?.path);
    assert.equal(rescored.testsTotal, original.testsTotal + 1);
  });

  test('the agent did not run again: the rescore has verifier attempts only', async () => {
    const attempts = await readdir(path.join(runDir(rescored.workflowId), 'scenarios', 'hostile-outputs'));
    assert.deepEqual(attempts, ['verifier-attempt-1']);
  });

  test('old and new counts side by side', () => {
    const table = renderComparison(original, rescored, ['hostile-outputs']);
    const before = original.perScenario[0]!;
    assert.match(
      table,
      new RegExp(
        `hostile-outputs\\s+rescored\\s+${before.testsPassed}/${before.testsTotal}\\s+${before.testsPassed}/${before.testsTotal + 1}\\s+0\\s+completed`,
      ),
    );
  });
});
