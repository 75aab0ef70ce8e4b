// Every active scenario, proved: its image builds from the sandbox base with no registry, the oracle
// passes every hidden test, the null agent none, the partial solution strictly between, and two
// verifier runs on the same outputs agree test by test. Plus the set's own bar (size, spread).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { listScenarioFolders } from '../../catalog/list-scenarios.ts';
import { loadScenario } from '../../catalog/load-scenario.ts';
import { readRegistry } from '../../catalog/registry.ts';
import { scenariosDir } from '../../common/data-layout.ts';
import { ContainerSession } from '../../sandbox/container-session.ts';
import { ensureScenarioImage } from '../../sandbox/scenario-image.ts';
import { currentWorkerIdentity } from '../../sandbox/worker-identity.ts';
import { runVerifier } from '../../verifiers/run-verifier.ts';
import { parseCtrf } from '../../verifiers/ctrf-report.ts';
import type { EvaluationResult, ScenarioResult } from '../../contracts/results.ts';
import { startHarness, type Harness } from '../support/evaluation-harness.ts';
import { examplePackDir } from '../support/fixture-packs.ts';

describe('the active scenario set', async () => {
  const active = await listScenarioFolders();
  const folders = await Promise.all(active.map((s) => loadScenario(s.dir)));
  let harness: Harness;
  const runs: Record<'oracle' | 'null' | 'partial', EvaluationResult | undefined> = { oracle: undefined, null: undefined, partial: undefined };

  before(async () => {
    harness = await startHarness();
    // One at a time: each already fans out over every scenario.
    for (const agent of ['oracle', 'null', 'partial'] as const) {
      runs[agent] = await harness.evaluate({ pack: { kind: 'directory', path: examplePackDir }, agent });
    }
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
    process.stdout.write(`# spec ${registry.spec}: ${folders.length} scenarios, ${categories.size} categories, ${hard.length} hard, ${totalTests} hidden tests\n`);
    assert.ok(folders.length >= 26, `${folders.length} active scenarios`);
    assert.ok(categories.size >= 12, `${categories.size} categories`);
    assert.ok(hard.length >= 8, `${hard.length} hard scenarios`);
    assert.ok(totalTests >= 200, `${totalTests} hidden tests`);
  });

  for (const folder of folders) {
    test(`${folder.name}: builds, the oracle passes all, null none, partial in between`, async () => {
      const oracle = resultOf('oracle', folder.name);
      assert.equal(oracle.status, 'completed', oracle.error);
      assert.ok(oracle.testsTotal >= 6, `${oracle.testsTotal} tests`);
      assert.equal(oracle.testsPassed, oracle.testsTotal, `oracle ${oracle.testsPassed}/${oracle.testsTotal}`);
      const nothing = resultOf('null', folder.name);
      assert.equal(nothing.testsPassed, 0, `the null agent passed ${nothing.testsPassed}`);
      assert.equal(nothing.testsTotal, oracle.testsTotal);
      const hasPartial = await stat(path.join(folder.dir, 'solution', 'partial.sh')).then(() => true, () => false);
      if (hasPartial) {
        const partial = resultOf('partial', folder.name);
        assert.ok(partial.testsPassed > 0 && partial.testsPassed < partial.testsTotal, `partial ${partial.testsPassed}/${partial.testsTotal}`);
      }
    });

    test(`${folder.name}: two verifier runs on the same outputs agree test by test`, async () => {
      const oracle = resultOf('oracle', folder.name);
      const first = parseCtrf(await readFile(oracle.artifacts.verifierReport!.path, 'utf8'));
      const image = await ensureScenarioImage(harness.docker, harness.baseImage, folder);
      const session = await ContainerSession.start(harness.docker, {
        image, role: 'verifier', scenario: folder.name, workflowId: `determinism-${process.pid}`,
        cpus: folder.config.environment.cpus, memoryMb: folder.config.environment.memory_mb, owner: currentWorkerIdentity(),
      });
      try {
        const again = await runVerifier({
          session, scenarioDir: folder.dir, outputsArchive: await readFile(oracle.artifacts.agentOutputs!.path),
          timeoutSec: folder.config.verifier.timeout_sec, onTick: () => undefined,
        });
        assert.deepEqual(again.counts.tests, first.tests);
      } finally {
        await session.remove();
      }
    });
  }
});
