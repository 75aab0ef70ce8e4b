// Roles on the real Temporal server and Docker (docs/explanation/roles-and-queues.md): one orchestration
// worker and two sandbox workers in this process, with distinct host ids (the data directory is
// one per process: common/data-layout.ts reads TRL_DATA_DIR once). Every scenario's prepare, run
// and verify go to the queue of the host that claimed it; a host shut down mid-scenario makes the
// scenario start over on the other host, and the evaluation scores as the clean run did.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { defaultPayloadConverter } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import proto, { type temporal } from '@temporalio/proto';
import { bootstrap, type BootstrapResult } from '../../infra/bootstrap.ts';
import { startHostedWorker, type HostedWorker } from '../../workers/hosted-worker.ts';
import { startEvaluation } from '../../cli/client/start-evaluation.ts';
import { evaluationWorkflowId, sandboxHostTaskQueue, sandboxTaskQueue } from '../../contracts/temporal-names.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { startHarness, uniqueId, type Harness } from '../support/evaluation-harness.ts';
import { examplePackDir } from '../support/fixture-packs.ts';
import { waitFor } from '../support/worker-process.ts';

const scenarios = ['csv-sales-report', 'newton-root-solver', 'semver-range-matcher'];

type History = temporal.api.history.v1.IHistory;

/** One scheduled activity as the history tells it: what, for which scenario, on which queue, by whom, how it ended. */
interface ActivityRun {
  type: string;
  scenario?: string;
  queue: string;
  identity?: string;
  outcome: 'completed' | 'failed' | 'timed_out' | 'open';
  timeoutType?: string;
  result?: unknown;
}

function decode(payloads: temporal.api.common.v1.IPayloads | null | undefined): unknown {
  const first = payloads?.payloads?.[0];
  return first ? defaultPayloadConverter.fromPayload(first) : undefined;
}

function scenarioOf(type: string, input: unknown): string | undefined {
  const value = input as { name?: string; scenario?: { name?: string } } | undefined;
  return type === 'claimSandboxHost' || type === 'prepareScenario' ? value?.name : value?.scenario?.name;
}

function activityRuns(history: History): ActivityRun[] {
  const runs = new Map<number, ActivityRun>();
  for (const event of history.events ?? []) {
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled) {
      const type = scheduled.activityType?.name ?? '';
      runs.set(Number(event.eventId), {
        type,
        scenario: scenarioOf(type, decode(scheduled.input)),
        queue: scheduled.taskQueue?.name ?? '',
        outcome: 'open',
      });
    }
    const started = event.activityTaskStartedEventAttributes;
    if (started) runs.get(Number(started.scheduledEventId))!.identity = started.identity ?? undefined;
    const completed = event.activityTaskCompletedEventAttributes;
    if (completed)
      Object.assign(runs.get(Number(completed.scheduledEventId))!, {
        outcome: 'completed',
        result: decode(completed.result),
      });
    const failed = event.activityTaskFailedEventAttributes;
    if (failed) runs.get(Number(failed.scheduledEventId))!.outcome = 'failed';
    const timedOut = event.activityTaskTimedOutEventAttributes;
    if (timedOut) {
      Object.assign(runs.get(Number(timedOut.scheduledEventId))!, {
        outcome: 'timed_out',
        timeoutType:
          proto.temporal.api.enums.v1.TimeoutType[Number(timedOut.failure?.timeoutFailureInfo?.timeoutType ?? 0)],
      });
    }
  }
  return [...runs.values()];
}

const hostActivities = ['prepareScenario', 'runScenario', 'verifyScenario'];

/** The hosts that claimed the scenario, in order. */
function claimsOf(runs: ActivityRun[], scenario: string): string[] {
  return runs
    .filter((r) => r.type === 'claimSandboxHost' && r.scenario === scenario && r.outcome === 'completed')
    .map((r) => (r.result as { hostId: string }).hostId);
}

describe('sandbox roles: one host per scenario, and a lost host', () => {
  let harness: Harness;
  let stack: BootstrapResult;
  const running: { hosted: HostedWorker; done: Promise<void> }[] = [];
  let clean: EvaluationResult;
  let cleanHistory: History;

  const startRole = async (roles: ['orchestration'] | ['sandbox'], hostId?: string) => {
    const hosted = await startHostedWorker({
      docker: harness.docker,
      stack,
      taskQueue: harness.taskQueue,
      workflowBundle: harness.bundle,
      roles,
      ...(hostId ? { hostId } : {}),
    });
    const entry = { hosted, done: hosted.run() };
    running.push(entry);
    return entry;
  };
  const stop = async (entry: { hosted: HostedWorker; done: Promise<void> }) => {
    entry.hosted.shutdown();
    await entry.done;
  };
  const hostQueue = (hostId: string) => sandboxHostTaskQueue(harness.taskQueue, hostId);

  before(async () => {
    harness = await startHarness({ withWorker: false });
    stack = await bootstrap(harness.docker);
    await startRole(['orchestration']);
    await startRole(['sandbox'], 'host-a');
    await startRole(['sandbox'], 'host-b');
    const submissionId = uniqueId('hosts-clean');
    clean = await harness.evaluate({
      submissionId,
      pack: { kind: 'directory', path: examplePackDir },
      agent: 'oracle',
      scenarios,
    });
    cleanHistory = (await harness.client.workflow
      .getHandle(evaluationWorkflowId(submissionId))
      .fetchHistory()) as History;
  });
  after(async () => {
    for (const entry of running) {
      entry.hosted.shutdown();
      await entry.done.catch(() => undefined);
    }
    await harness?.close();
  });

  test("each scenario is claimed on the shared queue, then prepared, run and verified on that host's own queue", async (t) => {
    assert.equal(clean.status, 'completed', JSON.stringify(clean.perScenario));
    assert.equal(clean.testsPassed, clean.testsTotal);
    const runs = activityRuns(cleanHistory);
    const used = new Set<string>();
    for (const scenario of scenarios) {
      const claims = claimsOf(runs, scenario);
      assert.equal(claims.length, 1, `${scenario}: claimed once`);
      const host = claims[0]!;
      used.add(host);
      assert.ok(
        runs.some(
          (r) =>
            r.type === 'claimSandboxHost' && r.scenario === scenario && r.queue === sandboxTaskQueue(harness.taskQueue),
        ),
      );
      const onHost = runs.filter((r) => r.scenario === scenario && hostActivities.includes(r.type));
      assert.deepEqual(
        onHost.map((r) => r.type),
        hostActivities,
        `${scenario}: prepare, run, verify once each`,
      );
      for (const r of onHost) {
        assert.equal(r.queue, hostQueue(host), `${scenario} ${r.type} went to its host's queue`);
        assert.ok(r.identity?.endsWith(`/${host}`), `${scenario} ${r.type} ran on ${host}, not ${r.identity}`);
      }
    }
    // No scenario activity ran on the orchestration queue.
    assert.ok(runs.filter((r) => hostActivities.includes(r.type)).every((r) => r.queue !== harness.taskQueue));
    t.diagnostic(`hosts used: ${[...used].join(', ')}`);
    await Worker.runReplayHistory({ workflowBundle: harness.bundle }, cleanHistory, 'clean');
  });

  test('a sandbox host shut down mid-scenario: the scenario starts over on the other host, same score', async () => {
    // Only host B takes claims at first, so it holds scenarios when it goes.
    await stop(running.find((entry) => entry.hosted.workers.queues.includes(hostQueue('host-a')))!);
    const hostB = running.find((entry) => entry.hosted.workers.queues.includes(hostQueue('host-b')))!;
    const submissionId = uniqueId('hosts-lost');
    const handle = await startEvaluation(
      harness.client,
      { submissionId, pack: { kind: 'directory', path: examplePackDir }, agent: 'oracle', scenarios },
      harness.taskQueue,
    );
    await waitFor(
      async () => {
        const runs = activityRuns((await handle.fetchHistory()) as History);
        return runs.some((r) => r.type === 'runScenario' && r.queue === hostQueue('host-b')) ? true : undefined;
      },
      150_000,
      'a run on host B',
    );
    await stop(hostB);
    // B's claims are now unserved; a new host takes them over.
    await sleep(1000);
    await startRole(['sandbox'], 'host-c');
    const result = await handle.result();
    assert.equal(result.status, 'completed', JSON.stringify(result.perScenario));
    assert.equal(result.testsPassed, clean.testsPassed);
    assert.deepEqual(
      result.perScenario.map((s) => [s.name, s.status, s.testsPassed, s.testsTotal]),
      clean.perScenario.map((s) => [s.name, s.status, s.testsPassed, s.testsTotal]),
    );

    const history = (await handle.fetchHistory()) as History;
    const runs = activityRuns(history);
    const moved = scenarios.filter((scenario) => claimsOf(runs, scenario).join() === 'host-b,host-c');
    assert.ok(
      moved.length > 0,
      `some scenario moved from B to C: ${JSON.stringify(scenarios.map((s) => [s, claimsOf(runs, s)]))}`,
    );
    assert.ok(
      runs.some(
        (r) =>
          r.queue === hostQueue('host-b') &&
          r.outcome === 'timed_out' &&
          r.timeoutType === 'TIMEOUT_TYPE_SCHEDULE_TO_START',
      ),
      'the lost host was noticed by a schedule-to-start timeout',
    );
    for (const scenario of moved) {
      // Its final prepare, run and verify all ran on C.
      const lastOnHost = hostActivities.map(
        (type) => runs.filter((r) => r.scenario === scenario && r.type === type).at(-1)!,
      );
      for (const r of lastOnHost) {
        assert.equal(r.queue, hostQueue('host-c'), `${scenario} ${r.type}`);
        assert.equal(r.outcome, 'completed', `${scenario} ${r.type}`);
      }
    }
    await Worker.runReplayHistory({ workflowBundle: harness.bundle }, history, 'lost');
  });
});
