// Tasks in the published Harbor / Terminal-Bench shapes run unchanged on the real pipeline (Temporal,
// Docker, verifiers): no agent_outputs with a system-state test (verified from a snapshot), a
// reward-only verifier with a fractional reward, a Terminal-Bench 1 task through `trl import-tasks`,
// and a task whose agent is the image's own non-root user. Oracle passes all, null passes none; a task
// folder with no tests/test.sh is that task's failure (task_invalid, its metadata kept), not the run's.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
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
    const broken = path.join(dir, 'harbor', 'no-test-sh');
    await mkdir(path.join(broken, 'environment'), { recursive: true });
    await writeFile(path.join(broken, 'task.toml'), '[metadata]\ncategory = "broken"\ndifficulty = "easy"\n');
    await writeFile(path.join(broken, 'instruction.md'), 'Nothing to do.\n');
    await writeFile(path.join(broken, 'environment', 'Dockerfile'), 'FROM debian:bookworm\n');
    // Every verification starts its container: this file checks the verifiers themselves.
    harness = await startHarness({ verifierCache: false });
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

  test('import-tasks converts the TB1 task and refuses the one that downloads from an unreachable host, saying why', () => {
    const byName = Object.fromEntries(imported.map((task) => [task.name, task]));
    assert.equal(byName['hello-world']?.status, 'imported');
    assert.match(
      byName['hello-world']!.notes.join('\n'),
      /FROM ghcr\.io\/laude-institute\/t-bench\/python-3-13:20250620 rewritten: Python 3\.13: Debian trixie's Python 3\.13 on the bookworm base/,
    );
    assert.equal(byName['needs-download']?.status, 'refused');
    assert.match(
      byName['needs-download']!.notes.join('\n'),
      /an installer piped to a shell from tools\.example\.org .* a host this machine cannot reach/,
    );
  });

  test('a task folder with no tests/test.sh is task_invalid with its metadata; the others run', () => {
    for (const result of [results.oracle!, results.null!]) {
      const broken = result.perScenario.find((s) => s.name === 'no-test-sh');
      assert.deepEqual([broken?.status, broken?.category, broken?.difficulty], ['task_invalid', 'broken', 'easy']);
      assert.match(broken?.error ?? '', /missing tests\/test\.sh \(the verifier/);
      assert.equal(result.status, 'incomplete');
    }
  });

  test('the oracle passes every test of every shape; the null agent passes none', () => {
    const names = [...harborShaped, 'hello-world'].sort();
    const ran = (result: EvaluationResult) => result.perScenario.filter((s) => s.name !== 'no-test-sh');
    assert.deepEqual(
      ran(results.oracle!)
        .map((s) => s.name)
        .sort(),
      names,
    );
    for (const scenario of ran(results.oracle!)) {
      assert.equal(scenario.status, 'completed', `${scenario.name}: ${scenario.error ?? ''}`);
      assert.ok(scenario.testsTotal >= 2, `${scenario.name}: ${scenario.testsTotal} tests`);
      assert.equal(
        scenario.testsPassed,
        scenario.testsTotal,
        `${scenario.name}: ${scenario.testsPassed}/${scenario.testsTotal}`,
      );
    }
    for (const scenario of ran(results.null!)) {
      assert.equal(scenario.status, 'completed', `${scenario.name}: ${scenario.error ?? ''}`);
      assert.equal(scenario.testsPassed, 0, `${scenario.name} passed ${scenario.testsPassed} with a null agent`);
    }
    assert.equal(results.null!.testsTotal, results.oracle!.testsTotal);
  });

  test('a fractional reward scores that share of the declared tests', () => {
    const [scenario] = results.partial!.perScenario;
    assert.deepEqual([scenario?.testsPassed, scenario?.testsTotal], [2, 4], scenario?.error);
  });

  test('allow_internet left out of task.toml earns no note; metadata may be left out', () => {
    const systemState = results.oracle!.perScenario.find((s) => s.name === 'system-state')!;
    assert.doesNotMatch((systemState.notes ?? []).join('\n'), /allow_internet/);
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
