// Every active scenario, proved: its image builds from the sandbox base with no registry, the oracle
// passes every hidden test, the null agent none, the partial solution strictly between, and two
// verifier runs on the same outputs agree test by test. Plus the set's own bar (size, spread), and
// what evaluateSubmission leaves of the oracle's run: artifacts, search attributes, a replayable
// history, no container. One evaluation per agent serves every check: each is 26 scenarios.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { evaluationWorkflowId, searchAttributes } from '../../contracts/temporal-names.ts';
import { containerLabels } from '../../sandbox/container-labels.ts';
import { listManagedContainers } from '../../sandbox/orphan-cleanup.ts';
import { listScenarioFolders } from '../../catalog/list-scenarios.ts';
import { loadScenario } from '../../catalog/load-scenario.ts';
import { readRegistry } from '../../catalog/registry.ts';
import { scenariosDir } from '../../common/data-layout.ts';
import { ContainerSession } from '../../sandbox/container-session.ts';
import { ensureScenarioImage } from '../../sandbox/scenario-image.ts';
import { currentWorkerIdentity } from '../../sandbox/worker-identity.ts';
import { runVerifier } from '../../verifiers/run-verifier.ts';
import { failedTests, parseCtrf } from '../../verifiers/ctrf-report.ts';
import type { EvaluationResult, ScenarioResult } from '../../contracts/results.ts';
import { startHarness, uniqueId, type Harness } from '../support/evaluation-harness.ts';
import { examplePackDir } from '../support/fixture-packs.ts';

describe('the active scenario set', async () => {
  const active = await listScenarioFolders();
  const folders = await Promise.all(active.map((s) => loadScenario(s.dir)));
  let harness: Harness;
  const runs: Record<'oracle' | 'null' | 'partial', EvaluationResult | undefined> = {
    oracle: undefined,
    null: undefined,
    partial: undefined,
  };
  const oracleId = uniqueId('oracle');

  before(async () => {
    // Every verification starts its container: this file checks the verifiers themselves.
    harness = await startHarness({ verifierCache: false });
    // All three at once: the worker's slots bound the scenarios in flight, and none waits for the tail of another run.
    const [oracle, nothing, partial] = await Promise.all(
      (['oracle', 'null', 'partial'] as const).map((agent) =>
        harness.evaluate({
          pack: { kind: 'directory', path: examplePackDir },
          agent,
          ...(agent === 'oracle' ? { submissionId: oracleId } : {}),
        }),
      ),
    );
    Object.assign(runs, { oracle, null: nothing, partial });
  });
  after(async () => harness?.close());

  const resultOf = (agent: keyof typeof runs, name: string): ScenarioResult => {
    const found = runs[agent]?.perScenario.find((s) => s.name === name);
    assert.ok(found, `no ${agent} result for ${name}`);
    return found;
  };

  test('the set is large and varied enough to measure policies', async () => {
    const registry = await readRegistry(scenariosDir);
    assert.ok(registry, 'scenarios/registry.json is missing');
    const categories = new Set(folders.map((f) => f.config.metadata.category));
    const hard = folders.filter((f) => f.config.metadata.difficulty === 'hard');
    const totalTests = runs.oracle!.testsTotal;
    process.stdout.write(
      `# spec ${registry.spec}: ${folders.length} scenarios, ${categories.size} categories, ${hard.length} hard, ${totalTests} hidden tests\n`,
    );
    assert.ok(folders.length >= 26, `${folders.length} active scenarios`);
    assert.ok(categories.size >= 12, `${categories.size} categories`);
    assert.ok(hard.length >= 8, `${hard.length} hard scenarios`);
    assert.ok(totalTests >= 200, `${totalTests} hidden tests`);
  });

  /** The report's failed tests with their messages, for an assertion that has to say why. */
  const failuresOf = async (result: ScenarioResult): Promise<string> => {
    const report = result.artifacts.verifierReport?.path;
    if (!report?.endsWith('.json')) return '';
    const failed = failedTests(await readFile(report, 'utf8'));
    return failed.map((t) => `\n  ${t.name}: ${t.message.slice(0, 600)}`).join('');
  };

  for (const folder of folders) {
    test(`${folder.name}: builds, the oracle passes all, null none, partial in between`, async () => {
      const oracle = resultOf('oracle', folder.name);
      assert.equal(oracle.status, 'completed', oracle.error);
      assert.ok(oracle.testsTotal >= 6, `${oracle.testsTotal} tests`);
      assert.equal(
        oracle.testsPassed,
        oracle.testsTotal,
        `oracle ${oracle.testsPassed}/${oracle.testsTotal}${await failuresOf(oracle)}`,
      );
      const nothing = resultOf('null', folder.name);
      assert.equal(nothing.testsPassed, 0, `the null agent passed ${nothing.testsPassed}`);
      assert.equal(nothing.testsTotal, oracle.testsTotal);
      const hasPartial = await stat(path.join(folder.dir, 'solution', 'partial.sh')).then(
        () => true,
        () => false,
      );
      if (hasPartial) {
        const partial = resultOf('partial', folder.name);
        assert.ok(
          partial.testsPassed > 0 && partial.testsPassed < partial.testsTotal,
          `partial ${partial.testsPassed}/${partial.testsTotal}`,
        );
      }
    });

    test(`${folder.name}: two verifier runs on the same outputs agree test by test`, async () => {
      const oracle = resultOf('oracle', folder.name);
      const first = parseCtrf(await readFile(oracle.artifacts.verifierReport!.path, 'utf8'));
      const image = await ensureScenarioImage(harness.docker, harness.baseImage, folder);
      const session = await ContainerSession.start(harness.docker, {
        image,
        role: 'verifier',
        scenario: folder.name,
        workflowId: `determinism-${process.pid}`,
        cpus: folder.config.environment.cpus,
        memoryMb: folder.config.environment.memory_mb,
        owner: currentWorkerIdentity(),
      });
      try {
        const again = await runVerifier({
          session,
          scenarioDir: folder.dir,
          outputsArchive: await readFile(oracle.artifacts.agentOutputs!.path),
          timeoutSec: folder.config.verifier.timeout_sec,
          onTick: () => undefined,
        });
        assert.deepEqual(again.counts.tests, first.tests, await failuresOf(oracle));
      } finally {
        await session.remove();
      }
    });
  }

  describe('evaluateSubmission on the active scenarios', () => {
    test('runs every scenario of the active set, in order', () => {
      assert.deepEqual(
        runs.oracle!.perScenario.map((s) => s.name),
        active.map((s) => s.name),
      );
      assert.deepEqual(
        runs.null!.perScenario.map((s) => s.name),
        active.map((s) => s.name),
      );
    });

    test('the oracle run completes with every test passed, the null run with none', () => {
      const oracle = runs.oracle!;
      assert.equal(oracle.status, 'completed');
      assert.equal(oracle.testsPassed, oracle.testsTotal);
      assert.equal(runs.null!.status, 'completed');
      assert.equal(runs.null!.testsPassed, 0);
      assert.equal(runs.null!.testsTotal, oracle.testsTotal);
    });

    test('results reference artifacts by path and sha256, and the files match', async () => {
      const oracle = runs.oracle!;
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
      const oracle = runs.oracle!;
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
      const left = await listManagedContainers(harness.docker, [
        `${containerLabels.workflowId}=${evaluationWorkflowId(oracleId)}`,
      ]);
      assert.deepEqual(left, []);
    });
  });
});
