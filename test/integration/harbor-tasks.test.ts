// Tasks in the published Harbor / Terminal-Bench shapes run unchanged on the real pipeline (Temporal,
// Docker, verifiers): no agent_outputs with a system-state test (verified from a snapshot), a
// reward-only verifier with a fractional reward, a Terminal-Bench 1 task through `trl import-tasks`,
// and a task whose agent is the image's own non-root user. Oracle passes all, null passes none.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EvaluationResult } from '../../contracts/results.ts';
import { importTerminalBenchTasks, type ImportedTask } from '../../catalog/import-terminal-bench.ts';
import { listManagedContainers } from '../../sandbox/orphan-cleanup.ts';
import { containerLabels } from '../../sandbox/container-labels.ts';
import { snapshotLabel } from '../../sandbox/agent-snapshot.ts';
import { repoRoot } from '../../common/data-layout.ts';
import { startHarness, uniqueId, type Harness } from '../support/evaluation-harness.ts';
import { examplePackDir } from '../support/fixture-packs.ts';

const fixtures = path.join(repoRoot, 'test', 'fixtures', 'harbor-tasks');
const harborShaped = ['system-state', 'fractional-reward', 'nonroot-user'];

describe('Harbor and Terminal-Bench tasks run unchanged', () => {
  let harness: Harness;
  let dir: string;
  let imported: ImportedTask[];
  const ids = { oracle: uniqueId('harbor-oracle'), null: uniqueId('harbor-null'), partial: uniqueId('harbor-partial') };
  const results: Record<string, EvaluationResult> = {};

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'trl-harbor-tasks-'));
    // Harbor-layout tasks one folder deeper (a dataset grouped in a sub-folder), TB1 tasks imported beside them.
    for (const name of harborShaped)
      await cp(path.join(fixtures, name), path.join(dir, 'harbor', name), { recursive: true });
    imported = await importTerminalBenchTasks(path.join(fixtures, 'tb1'), path.join(dir, 'imported'));
    harness = await startHarness();
    const pack = { kind: 'directory' as const, path: examplePackDir };
    const [oracle, nullRun, partial] = await Promise.all([
      harness.evaluate({ submissionId: ids.oracle, pack, agent: 'oracle', scenariosDir: dir }),
      harness.evaluate({ submissionId: ids.null, pack, agent: 'null', scenariosDir: dir }),
      harness.evaluate({
        submissionId: ids.partial,
        pack,
        agent: 'partial',
        scenariosDir: dir,
        scenarios: ['fractional-reward'],
      }),
    ]);
    Object.assign(results, { oracle, null: nullRun, partial });
  });
  after(async () => {
    await harness?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('import-tasks converts the Debian-only TB1 task and refuses the one that needs PyPI, saying why', () => {
    const byName = Object.fromEntries(imported.map((task) => [task.name, task]));
    assert.equal(byName['hello-world']?.status, 'imported');
    assert.match(
      byName['hello-world']!.notes.join('\n'),
      /FROM ghcr\.io\/laude-institute\/t-bench\/python-3-13:20250620 rewritten to the sandbox base image/,
    );
    assert.equal(byName['needs-pip']?.status, 'refused');
    assert.match(byName['needs-pip']!.notes.join('\n'), /needs more than Debian packages: pip install/);
  });

  test('the oracle passes every test of every shape; the null agent passes none', () => {
    const names = [...harborShaped, 'hello-world'].sort();
    assert.deepEqual(results.oracle!.perScenario.map((s) => s.name).sort(), names);
    for (const scenario of results.oracle!.perScenario) {
      assert.equal(scenario.status, 'completed', `${scenario.name}: ${scenario.error ?? ''}`);
      assert.ok(scenario.testsTotal >= 2, `${scenario.name}: ${scenario.testsTotal} tests`);
      assert.equal(
        scenario.testsPassed,
        scenario.testsTotal,
        `${scenario.name}: ${scenario.testsPassed}/${scenario.testsTotal}`,
      );
    }
    for (const scenario of results.null!.perScenario) {
      assert.equal(scenario.status, 'completed', `${scenario.name}: ${scenario.error ?? ''}`);
      assert.equal(scenario.testsPassed, 0, `${scenario.name} passed ${scenario.testsPassed} with a null agent`);
    }
    assert.equal(results.null!.testsTotal, results.oracle!.testsTotal);
  });

  test('a fractional reward scores that share of the declared tests', () => {
    const [scenario] = results.partial!.perScenario;
    assert.deepEqual([scenario?.testsPassed, scenario?.testsTotal], [2, 4], scenario?.error);
  });

  test("allow_internet at Harbor's default is accepted and noted; metadata may be left out", () => {
    const systemState = results.oracle!.perScenario.find((s) => s.name === 'system-state')!;
    assert.match((systemState.notes ?? []).join('\n'), /allow_internet = true .* without egress/);
    assert.equal(systemState.category, undefined);
  });

  test('no container and no snapshot image outlives the runs', async () => {
    for (const id of Object.values(ids)) {
      const left = await listManagedContainers(harness.docker, [`${containerLabels.workflowId}=evaluate-${id}`]);
      assert.deepEqual(
        left.map((c) => c.Names),
        [],
        `containers left by ${id}`,
      );
    }
    const snapshots = await harness.docker.listImages({ filters: { label: [`${snapshotLabel}=1`] } });
    const ours = snapshots.filter((image) =>
      Object.values(ids).some((id) => (image.RepoTags ?? []).some((tag) => tag.includes(id))),
    );
    assert.deepEqual(
      ours.map((image) => image.RepoTags),
      [],
    );
  });
});
