// Killing the worker process mid-evaluation: a new worker finishes the same workflow with the same
// result, and no container of the run is left behind. (The seat's side: worker-crash-seat.test.ts.
// Each mostly waits on Temporal's timeouts, so apart they overlap the rest of the suite.)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { repoRoot } from '../../common/data-layout.ts';
import { evaluationWorkflowId } from '../../contracts/temporal-names.ts';
import { containerLabels } from '../../sandbox/container-labels.ts';
import { listManagedContainers } from '../../sandbox/orphan-cleanup.ts';
import { startEvaluation } from '../../cli/client/start-evaluation.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { waitFor, workerProcesses } from '../support/worker-process.ts';
import { startHarness, uniqueId, type Harness } from '../support/evaluation-harness.ts';
import { examplePackDir } from '../support/fixture-packs.ts';

const fixtures = path.join(repoRoot, 'test', 'fixtures', 'scenarios');

const outcome = (result: EvaluationResult) => ({
  status: result.status,
  testsPassed: result.testsPassed,
  testsTotal: result.testsTotal,
  perScenario: result.perScenario.map((s) => ({
    name: s.name,
    status: s.status,
    testsPassed: s.testsPassed,
    testsTotal: s.testsTotal,
  })),
});

describe('worker crash mid-evaluation', () => {
  let harness: Harness;
  const workers = workerProcesses();

  before(async () => {
    harness = await startHarness({ withWorker: false });
  });
  after(async () => {
    workers.killAll();
    await harness?.close();
  });

  test('a new worker completes the same workflow with the same result and leaves no containers', async () => {
    const submission = {
      pack: { kind: 'directory' as const, path: examplePackDir },
      scenariosDir: fixtures,
      scenarios: ['slow-writer'],
      agent: 'oracle' as const,
    };
    const first = await workers.start(harness.taskQueue);
    const submissionId = uniqueId('crash');
    const workflowId = evaluationWorkflowId(submissionId);
    const handle = await startEvaluation(harness.client, { submissionId, ...submission }, harness.taskQueue);
    const runLabel = `${containerLabels.workflowId}=${workflowId}`;

    // Kill the worker while the agent is inside its sandbox.
    await waitFor(
      async () => {
        const containers = await listManagedContainers(harness.docker, [runLabel, `${containerLabels.role}=agent`]);
        return containers.find((c) => c.State === 'running');
      },
      60_000,
      'the agent container',
    );
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const orphans = await listManagedContainers(harness.docker, [runLabel]);
    assert.equal(orphans.length, 1, 'the killed worker should have left its container behind');

    const second = await workers.start(harness.taskQueue);
    // The same submission run without interruption gives the same outcome. It runs on the new worker
    // while the killed run waits out its timeouts (the file's wall time is mostly that wait).
    const uninterrupted = startEvaluation(
      harness.client,
      { submissionId: uniqueId('steady'), ...submission },
      harness.taskQueue,
    ).then((h) => h.result());
    uninterrupted.catch(() => undefined); // awaited below; a failure is reported there
    const recovered = await handle.result();
    assert.deepEqual(
      await listManagedContainers(harness.docker, [runLabel]),
      [],
      'containers left behind after recovery',
    );
    assert.deepEqual(outcome(recovered), outcome(await uninterrupted));
    assert.equal(recovered.status, 'completed');
    assert.equal(recovered.testsPassed, 2);

    const history = await handle.fetchHistory();
    // The killed worker's host queue has no poller any more: the scenario started over from a new
    // claim on the new worker's host (docs/explanation/roles-and-queues.md).
    const claims =
      history.events?.filter(
        (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'claimSandboxHost',
      ) ?? [];
    const runs =
      history.events?.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runScenario') ?? [];
    assert.equal(claims.length, 2, 'the scenario should have been claimed again after the crash');
    assert.equal(runs.length, 2, 'runScenario should have run again after the crash');
    second.kill('SIGTERM');
  });
});
