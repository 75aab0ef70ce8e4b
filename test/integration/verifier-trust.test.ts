// Invariant 3 against hostile agent code: tests call the agent's module (through trl_agent_run, as
// the agent user) and the module tries to forge, rewrite later (from a daemon that outlives pytest),
// delete the report, write into /tests, patch the reporter and kill the test process. The score must
// be exactly what an honest wrong answer gets, never an infrastructure error, and nothing of the
// agent user may be running when the report is read.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type Docker from 'dockerode';
import { loadScenario } from '../../catalog/load-scenario.ts';
import { ensureBaseImage } from '../../infra/base-image.ts';
import { agentUid } from '../../sandbox/agent-outputs.ts';
import { ContainerSession } from '../../sandbox/container-session.ts';
import { createDockerClient } from '../../sandbox/docker-client.ts';
import { ensureScenarioImage } from '../../sandbox/scenario-image.ts';
import { packFiles } from '../../sandbox/tar-archive.ts';
import { currentWorkerIdentity } from '../../sandbox/worker-identity.ts';
import { runVerifier, type VerifierRun } from '../../verifiers/run-verifier.ts';
import { checkScenarioTestsForAgentCode } from '../../verifiers/agent-import-check.ts';

const fixturesDir = path.join(import.meta.dirname, '..', 'fixtures');
const scenarioDir = path.join(fixturesDir, 'scenarios', 'hostile-verifier-code');

describe('verifier trust: agent code cannot move its own score', async () => {
  const folder = await loadScenario(scenarioDir);
  let docker: Docker;
  let image: string;

  before(async () => {
    docker = createDockerClient();
    image = await ensureScenarioImage(docker, await ensureBaseImage(docker), folder);
  });

  async function verify(agentFile: string): Promise<{ run: VerifierRun; running: boolean; attempts: string }> {
    const content = await readFile(path.join(fixturesDir, 'agent-code', agentFile));
    const outputs = await packFiles(
      [{ name: 'app/calc.py', content, mode: 0o644 }],
      { uid: agentUid, gid: agentUid },
      { directoryEntries: false },
    );
    const session = await ContainerSession.start(docker, {
      image,
      role: 'verifier',
      scenario: folder.name,
      workflowId: `verifier-trust-${process.pid}`,
      cpus: folder.config.environment.cpus,
      memoryMb: folder.config.environment.memory_mb,
      owner: currentWorkerIdentity(),
    });
    try {
      const run = await runVerifier({
        session,
        scenarioDir,
        outputsArchive: outputs,
        timeoutSec: folder.config.verifier.timeout_sec,
        onTick: () => undefined,
      });
      const running = (await session.container.inspect()).State.Running;
      const attemptsEntry = (await session.download('/tmp/hostile-attempts.log', 1024 * 1024))?.find(
        (e) => e.type === 'file',
      );
      return { run, running, attempts: attemptsEntry?.content?.toString('utf8') ?? '' };
    } finally {
      await session.remove();
    }
  }

  let honest: Awaited<ReturnType<typeof verify>>;
  let hostile: Awaited<ReturnType<typeof verify>>;
  before(async () => {
    honest = await verify('honest-failing-calc.py');
    hostile = await verify('hostile-calc.py');
  });
  after(() => undefined);

  test("the fixture's tests pass the static check (agent code only through trl_agent_run)", async () => {
    assert.deepEqual(await checkScenarioTestsForAgentCode(scenarioDir), []);
  });

  test('an honest wrong answer scores 0 of 3', () => {
    assert.equal(honest.run.counts.testsTotal, 3);
    assert.equal(honest.run.counts.testsPassed, 0);
  });

  test('the hostile module scores exactly what the honest wrong answer scores', () => {
    assert.equal(hostile.run.counts.source, 'ctrf');
    assert.equal(hostile.run.counts.testsTotal, honest.run.counts.testsTotal);
    assert.equal(hostile.run.counts.testsPassed, 0);
    assert.deepEqual(
      hostile.run.counts.tests.map((t) => t.status),
      honest.run.counts.tests.map((t) => t.status),
    );
  });

  test('every attack was attempted and refused', () => {
    const lines = hostile.attempts.split('\n');
    for (const attack of [
      'forge-report',
      'write-reward',
      'delete-report',
      'write-tests',
      'patch-reporter',
      'kill-tests',
    ]) {
      const outcomes = lines.filter((line) => line.startsWith(`${attack} `));
      assert.ok(outcomes.length > 0, `${attack} was not attempted:\n${hostile.attempts}`);
      assert.ok(
        outcomes.every((line) => line.includes('denied')),
        `${attack}: ${outcomes.join('; ')}`,
      );
    }
    assert.match(hostile.attempts, /^daemon started$/m);
    assert.doesNotMatch(hostile.attempts, /daemon forged the report/);
  });

  test('the daemon outlived pytest, was listed and killed, and nothing ran when the report was read', () => {
    assert.match(hostile.run.log, /agent processes alive after the tests, killed before the report was read\]\n\d+ /);
    assert.equal(hostile.running, false);
    assert.equal(honest.running, false);
    assert.doesNotMatch(honest.run.log, /agent processes alive/);
  });
});
