// pytest's collection of a task's tests runs inside the scenario image, never on the host: a test
// module that leaves a mark when imported leaves none here, the count is pytest's (generated
// parametrize cases a static reading cannot see), the container has no network interface but
// loopback and runs as `nobody`, and a module that fails to import falls back to the static count.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Docker from 'dockerode';
import { ensureBaseImage } from '../../infra/base-image.ts';
import { createDockerClient } from '../../sandbox/docker-client.ts';
import { ensureScenarioImage } from '../../sandbox/scenario-image.ts';
import { currentWorkerIdentity } from '../../sandbox/worker-identity.ts';
import { listManagedContainers } from '../../sandbox/orphan-cleanup.ts';
import { containerLabels } from '../../sandbox/container-labels.ts';
import { scenarioContentHash } from '../../catalog/scenario-content-hash.ts';
import { testsInFolder } from '../../catalog/count-tests.ts';
import { scenarioTestCount } from '../../verifiers/scenario-test-count.ts';
import { latestCachedTestCount } from '../../verifiers/test-count-cache.ts';
import { runCommand } from '../../common/run-command.ts';
import { repoRoot } from '../../common/data-layout.ts';

const marker = path.join(tmpdir(), `trl-collected-on-host-${randomBytes(6).toString('hex')}`);

// Imported at collection: marks the filesystem it runs on, and turns the container's user and
// network interfaces into test cases, so the count says where it ran.
const probingTests = `import os, pytest
open(${JSON.stringify(marker)}, "w").write("imported")
INTERFACES = sorted(os.listdir("/sys/class/net"))
UID = [os.getuid()]

@pytest.mark.parametrize("name", INTERFACES)
def test_interface(name):
    pass

@pytest.mark.parametrize("uid", UID)
def test_user(uid):
    pass

@pytest.mark.parametrize("n", range(5))
def test_generated(n):
    pass
`;

async function writeTask(
  root: string,
  name: string,
  tests: Record<string, string>,
): Promise<{ name: string; dir: string }> {
  const dir = path.join(root, name);
  await mkdir(path.join(dir, 'environment'), { recursive: true });
  await mkdir(path.join(dir, 'tests'), { recursive: true });
  await writeFile(
    path.join(dir, 'environment', 'Dockerfile'),
    'ARG BASE_IMAGE=trl-sandbox-base:latest\nFROM ${BASE_IMAGE}\nWORKDIR /app\n',
  );
  await writeFile(path.join(dir, 'task.toml'), 'version = "1.0"\n');
  await writeFile(path.join(dir, 'instruction.md'), 'Nothing to do.\n');
  await writeFile(path.join(dir, 'tests', 'test.sh'), '#!/bin/bash\npython3 -m pytest /tests\n');
  for (const [file, text] of Object.entries(tests)) await writeFile(path.join(dir, 'tests', file), text);
  return { name, dir };
}

describe('test collection inside the scenario image', () => {
  let docker: Docker;
  let baseImage: string;
  let root: string;
  const workflowId = `test-collection-${process.pid}`;
  const tags: string[] = [];

  before(async () => {
    docker = createDockerClient();
    baseImage = await ensureBaseImage(docker);
    root = await mkdtemp(path.join(tmpdir(), 'trl-collect-'));
  });
  after(async () => {
    for (const tag of tags)
      await docker
        .getImage(tag)
        .remove({ force: true })
        .catch(() => undefined);
    await rm(root, { recursive: true, force: true });
    await rm(marker, { force: true });
  });

  async function count(scenario: { name: string; dir: string }) {
    const imageTag = await ensureScenarioImage(docker, baseImage, scenario);
    tags.push(imageTag);
    return scenarioTestCount({
      docker,
      imageTag,
      scenario,
      contentHash: await scenarioContentHash(scenario.dir),
      owner: currentWorkerIdentity(),
      workflowId,
    });
  }

  test('pytest counts in the container; the host never imports the tests', async () => {
    const scenario = await writeTask(root, `collect-probe-${randomBytes(3).toString('hex')}`, {
      'test_probe.py': probingTests,
    });
    const counted = await count(scenario);
    assert.equal(existsSync(marker), false, 'the test module ran on the host');
    assert.equal(counted.source, 'pytest', counted.notes.join('\n'));
    // loopback only (1) + one user case + five generated cases; a static reading sees three tests.
    assert.equal(counted.count, 7);
    assert.equal(await testsInFolder(path.join(scenario.dir, 'tests')), 3);
    assert.equal(counted.cached, false);
    assert.deepEqual(
      await listManagedContainers(docker, [`${containerLabels.workflowId}=${workflowId}`]),
      [],
      'the collector container is removed',
    );

    const again = await count(scenario);
    assert.deepEqual([again.count, again.cached], [7, true]);
    assert.equal((await latestCachedTestCount(await scenarioContentHash(scenario.dir)))?.count, 7);
  });

  test('collection runs as nobody with no network interface but loopback', async () => {
    const scenario = await writeTask(root, `collect-identity-${randomBytes(3).toString('hex')}`, {
      'test_identity.py': `import os, pytest\nassert os.getuid() == 65534, os.getuid()\nassert sorted(os.listdir("/sys/class/net")) == ["lo"], os.listdir("/sys/class/net")\ndef test_ok():\n    pass\n`,
    });
    const counted = await count(scenario);
    assert.deepEqual([counted.source, counted.count], ['pytest', 1], counted.notes.join('\n'));
  });

  test('a module that cannot be imported falls back to the static count, with the reason', async () => {
    const scenario = await writeTask(root, `collect-broken-${randomBytes(3).toString('hex')}`, {
      'test_broken.py': 'import module_the_agent_would_write\n\ndef test_a():\n    pass\n\ndef test_b():\n    pass\n',
    });
    const counted = await count(scenario);
    assert.equal(counted.source, 'static');
    assert.equal(counted.count, 2);
    assert.match(counted.notes.join('\n'), /pytest collection exited 2: .*test_broken\.py.*counted from the source/);
  });

  test('`trl scenarios` reads the source until `--collect` counts in the images', async () => {
    const dir = path.join(root, 'listed');
    // Counts are cached by content in .cache/, which outlives a run: a fresh comment makes this task one no run has
    // counted.
    const fresh = randomBytes(6).toString('hex');
    await writeTask(dir, `collect-listed-${fresh}`, {
      'test_listed.py': `# ${fresh}\nimport pytest\n\n@pytest.mark.parametrize("n", range(4))\ndef test_n(n):\n    pass\n`,
    });
    const list = async (...flags: string[]) => {
      const { stdout } = await runCommand(path.join(repoRoot, 'trl'), [
        'scenarios',
        '--json',
        '--scenarios-dir',
        dir,
        ...flags,
      ]);
      return (JSON.parse(stdout) as { scenarios: { tests: number; countedBy: string }[] }).scenarios[0]!;
    };
    const unread = await list();
    assert.deepEqual([unread.tests, unread.countedBy], [1, 'source']);
    const collected = await list('--collect');
    assert.deepEqual([collected.tests, collected.countedBy], [4, 'pytest (in image)']);
    const cached = await list();
    assert.deepEqual([cached.tests, cached.countedBy], [4, 'pytest (in image)']);
    for (const image of await docker.listImages({ filters: { label: ['trl.scenario'] } })) {
      for (const tag of image.RepoTags ?? []) if (tag.startsWith('trl-scenario-collect-listed-')) tags.push(tag);
    }
  });
});
