// A sandbox host admits scenarios by its memory and CPU budget (activities/host-admission.ts), on the
// real Temporal server and Docker: a host lent memory for one and a half scenarios runs them one at a
// time and says why the others wait (the pending claim's heartbeat, read as `trl seat` reads it:
// cli/host-waits.ts); the same evaluation on a host with the default budget runs them together.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { bootstrap, type BootstrapResult } from '../../infra/bootstrap.ts';
import { startHostedWorker, type HostedWorker } from '../../workers/hosted-worker.ts';
import { startEvaluation } from '../../cli/client/start-evaluation.ts';
import { evaluationWorkflowId } from '../../contracts/temporal-names.ts';
import { startHarness, uniqueId, type Harness } from '../support/evaluation-harness.ts';
import { examplePackDir } from '../support/fixture-packs.ts';
import { scenariosWaitingForHost, type HostWait } from '../../cli/host-waits.ts';
import { calibratedScenarioCost } from '../../workers/host-budget.ts';
import { activitySpans } from '../../bench/workflow-history.ts';

const scenarios = ['csv-sales-report', 'newton-root-solver', 'semver-range-matcher'];

/** The most scenarios held at once: from each claim's end to its last verifyScenario's end. */
function mostInFlight(spans: ReturnType<typeof activitySpans>): number {
  const nameOf = (input: unknown) => {
    const value = input as { name?: string; scenario?: { name?: string } } | undefined;
    return value?.scenario?.name ?? value?.name;
  };
  const edges: [number, number][] = [];
  for (const name of scenarios) {
    const claimed = spans.filter((s) => s.type === 'claimSandboxHost' && nameOf(s.input) === name && s.closedMs);
    const verified = spans.filter((s) => s.type === 'verifyScenario' && nameOf(s.input) === name && s.closedMs);
    assert.ok(claimed.length > 0 && verified.length > 0, `${name} was claimed and verified`);
    edges.push([Math.min(...claimed.map((s) => s.closedMs!)), 1], [Math.max(...verified.map((s) => s.closedMs!)), -1]);
  }
  let now = 0;
  let most = 0;
  for (const [, step] of edges.sort((a, b) => a[0] - b[0] || a[1] - b[1])) most = Math.max(most, (now += step));
  return most;
}

describe('a sandbox host admits scenarios by what it has, and says why one waits', () => {
  let harness: Harness;
  let stack: BootstrapResult;
  const running: { hosted: HostedWorker; done: Promise<void> }[] = [];

  async function startWorker(roles: readonly ('orchestration' | 'sandbox')[], hostId?: string, memory?: number) {
    const previous = process.env.TRL_HOST_MEMORY_BYTES;
    if (memory !== undefined) process.env.TRL_HOST_MEMORY_BYTES = String(memory);
    try {
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
    } finally {
      if (previous === undefined) delete process.env.TRL_HOST_MEMORY_BYTES;
      else process.env.TRL_HOST_MEMORY_BYTES = previous;
    }
  }

  async function evaluate(label: string, watch: (waits: HostWait[]) => void) {
    const submissionId = uniqueId(label);
    const handle = await startEvaluation(
      harness.client,
      { submissionId, pack: { kind: 'directory', path: examplePackDir }, agent: 'oracle', scenarios },
      harness.taskQueue,
    );
    let done = false;
    const result = handle.result().finally(() => {
      done = true;
    });
    while (!done) {
      const waits = await scenariosWaitingForHost(harness.client);
      watch(waits.filter((w) => w.workflowId === evaluationWorkflowId(submissionId)));
      await sleep(500);
    }
    const evaluation = await result;
    const history = await harness.client.workflow.getHandle(evaluationWorkflowId(submissionId)).fetchHistory();
    return { evaluation, inFlight: mostInFlight(activitySpans(history.events ?? [])) };
  }

  before(async () => {
    harness = await startHarness({ withWorker: false });
    stack = await bootstrap(harness.docker);
    await startWorker(['orchestration']);
  });

  after(async () => {
    for (const { hosted } of running) hosted.shutdown();
    await Promise.allSettled(running.map(({ done }) => done));
    await harness?.close();
  });

  test('a host lent memory for one and a half scenarios runs one at a time and reports memory as the reason', async () => {
    const tight = await startWorker(['sandbox'], 'tight-host', Math.round(calibratedScenarioCost().memoryBytes * 1.5));
    const reasons: HostWait[] = [];
    const { evaluation, inFlight } = await evaluate('admission-tight', (waits) => reasons.push(...waits));
    tight.hosted.shutdown();
    await tight.done;
    assert.equal(evaluation.status, 'completed');
    assert.equal(inFlight, 1, 'never two scenarios on the tight host at once');
    const memory = reasons.find((w) => /^sandbox host tight-host is full: memory: 1 scenarios hold /.test(w.reason));
    assert.ok(memory, `a waiting scenario said memory binds; seen: ${JSON.stringify(reasons.slice(0, 3))}`);
    assert.ok(scenarios.includes(memory.scenario), 'the wait names its scenario');
  });

  test('the same evaluation on a host with the default budget runs its scenarios together', async () => {
    await startWorker(['sandbox'], 'roomy-host');
    const { evaluation, inFlight } = await evaluate('admission-roomy', () => undefined);
    assert.equal(evaluation.status, 'completed');
    assert.ok(inFlight >= 2, `the roomy host held ${inFlight} at once`);
  });
});
