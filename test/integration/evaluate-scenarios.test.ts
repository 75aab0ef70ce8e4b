// The real pipeline on the real scenarios: Temporal server, worker, Docker sandboxes, verifiers.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Worker } from '@temporalio/worker';
import { evaluationWorkflowId, searchAttributes } from '../../contracts/temporal-names.ts';
import { containerLabels } from '../../sandbox/container-labels.ts';
import { listScenarioFolders } from '../../catalog/list-scenarios.ts';
import { listManagedContainers } from '../../sandbox/orphan-cleanup.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { startHarness, uniqueId, type Harness } from '../support/evaluation-harness.ts';
import { examplePackDir } from '../support/fixture-packs.ts';

describe('evaluateSubmission on the active scenarios', () => {
  let harness: Harness;
  let oracle: EvaluationResult;
  let nullRun: EvaluationResult;
  const oracleId = uniqueId('oracle');

  before(async () => {
    harness = await startHarness();
    // Both runs at once: the scenarios fan out in parallel either way.
    [oracle, nullRun] = await Promise.all([
      harness.evaluate({ submissionId: oracleId, pack: { kind: 'directory', path: examplePackDir }, agent: 'oracle' }),
      harness.evaluate({ pack: { kind: 'directory', path: examplePackDir }, agent: 'null' }),
    ]);
  });
  after(async () => harness?.close());

  test('runs every scenario of the active set', async () => {
    const active = (await listScenarioFolders()).map((s) => s.name);
    assert.deepEqual(oracle.perScenario.map((s) => s.name), active);
    assert.ok(active.length >= 3);
  });

  test('the oracle agent passes every hidden test of each scenario', () => {
    assert.equal(oracle.status, 'completed');
    for (const scenario of oracle.perScenario) {
      assert.equal(scenario.status, 'completed', `${scenario.name}: ${scenario.error ?? ''}`);
      assert.ok(scenario.testsTotal >= 5, `${scenario.name} has only ${scenario.testsTotal} tests`);
      assert.equal(scenario.testsPassed, scenario.testsTotal, `${scenario.name}: ${scenario.testsPassed}/${scenario.testsTotal}`);
    }
    assert.equal(oracle.testsPassed, oracle.testsTotal);
  });

  test('the null agent passes no hidden test', () => {
    assert.equal(nullRun.status, 'completed');
    for (const scenario of nullRun.perScenario) assert.equal(scenario.testsPassed, 0, `${scenario.name} passed ${scenario.testsPassed} with a null agent`);
    assert.equal(nullRun.testsTotal, oracle.testsTotal);
  });

  test('results reference artifacts by path and sha256, and the files match', async () => {
    assert.ok(oracle.resultFile);
    for (const scenario of oracle.perScenario) {
      for (const name of ['agentOutputs', 'agentLog', 'verifierReport', 'verifierLog']) {
        const ref = scenario.artifacts[name];
        assert.ok(ref, `${scenario.name} lacks artifact ${name}`);
        const bytes = await readFile(ref.path);
        assert.equal(createHash('sha256').update(bytes).digest('hex'), ref.sha256);
      }
    }
    const written = JSON.parse(await readFile(oracle.resultFile.path, 'utf8'));
    assert.equal(written.testsPassed, oracle.testsPassed);
  });

  test('search attributes and memo make the run findable in the Temporal UI', async () => {
    const description = await harness.client.workflow.getHandle(evaluationWorkflowId(oracleId)).describe();
    assert.equal(description.typedSearchAttributes.get(searchAttributes.submissionId), oracleId);
    assert.equal(description.typedSearchAttributes.get(searchAttributes.status), 'completed');
    assert.equal(description.typedSearchAttributes.get(searchAttributes.testsPassed), oracle.testsPassed);
    assert.equal(description.typedSearchAttributes.get(searchAttributes.packHash), oracle.packHash);
    const memo = description.memo as { result?: { testsPassed?: number } };
    assert.equal(memo.result?.testsPassed, oracle.testsPassed);
  });

  test('a finished run replays without determinism errors', async () => {
    const history = await harness.client.workflow.getHandle(evaluationWorkflowId(oracleId)).fetchHistory();
    await Worker.runReplayHistory({ workflowBundle: harness.bundle }, history, evaluationWorkflowId(oracleId));
  });

  test('no container is left behind', async () => {
    const left = await listManagedContainers(harness.docker, [`${containerLabels.workflowId}=${evaluationWorkflowId(oracleId)}`]);
    assert.deepEqual(left, []);
  });
});
