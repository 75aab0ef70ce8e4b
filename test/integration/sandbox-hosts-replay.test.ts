// An evaluation begun by the workflow code from before the roles (every scenario activity on the
// evaluation queue) replays cleanly against today's code: the `sandbox-host-queues` patch keeps
// its command sequence. The old code is the commit before the roles, taken from git into a folder
// inside the repository (so the bundler finds node_modules); stand-in activities, no Docker.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { temporal } from '@temporalio/proto';
import { repoRoot } from '../../common/data-layout.ts';
import { bundleWorkflows } from '../../workers/create-worker.ts';
import { projectWorkflowBundle } from '../support/shared-workflow-bundle.ts';
import { historyOf, replayHistories } from '../../cli/client/replay-runs.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import type { Submission } from '../../contracts/submission.ts';
import { summarizeEvaluation } from '../../scoring/evaluation-summary.ts';
import { uniqueId } from '../support/evaluation-harness.ts';
import { passingPreamble } from '../support/stand-in-workers.ts';
import { temporalEndpoint } from '../../infra/temporal-server.ts';

const run = promisify(execFile);
/** The last commit whose evaluateSubmission ran scenarios without host queues. */
const beforeRoles = '06bc89d';
const artifact = { path: '/dev/null', sha256: '0'.repeat(64), sizeBytes: 0 };

const standIns = {
  ...passingPreamble,
  async runScenario() {
    return { outcome: 'completed', exitCode: 0, wallMs: 1, outputs: artifact, agentLog: artifact, outputNotes: [] };
  },
  async verifyScenario() {
    return {
      testsPassed: 2,
      testsFailed: 1,
      testsTotal: 3,
      source: 'ctrf',
      report: artifact,
      verifierLog: artifact,
      wallMs: 1,
    };
  },
  async aggregate(input: Parameters<typeof summarizeEvaluation>[0]) {
    return summarizeEvaluation(input);
  },
};

describe('histories from before the roles', () => {
  let oldDir: string;
  let connection: Connection;

  before(async () => {
    oldDir = await mkdtemp(path.join(repoRoot, '.replay-before-roles-'));
    const { stdout } = await run('git', ['archive', '--format=tar', beforeRoles, 'workflows', 'contracts', 'scoring'], {
      cwd: repoRoot,
      encoding: 'buffer',
      maxBuffer: 64 * 1024 * 1024,
    });
    await new Promise<void>((resolve, reject) => {
      const untar = execFile('tar', ['-x', '-C', oldDir], (error) => (error ? reject(error) : resolve()));
      untar.stdin!.end(stdout);
    });
    connection = await Connection.connect({ address: temporalEndpoint().address });
  });
  after(async () => {
    if (oldDir) await rm(oldDir, { recursive: true, force: true });
    await connection?.close();
  });

  test("an evaluation run by the old code replays cleanly against today's workflows", async () => {
    const client = new Client({ connection, namespace: temporalEndpoint().namespace });
    const taskQueue = uniqueId('trl-before-roles');
    const oldBundle = await bundleWorkflows(path.join(oldDir, 'workflows', 'index.ts'));
    const worker = await Worker.create({
      connection: await NativeConnection.connect({ address: temporalEndpoint().address }),
      namespace: temporalEndpoint().namespace,
      taskQueue,
      workflowBundle: oldBundle,
      activities: standIns,
    });
    const workflowId = uniqueId('before-roles');
    const submission: Submission = {
      submissionId: workflowId,
      pack: { kind: 'directory', path: '/nowhere' },
      agent: 'oracle',
      scenarios: ['one', 'two'],
      seed: 1,
    };
    const result = await worker.runUntil(
      client.workflow.execute('evaluateSubmission', {
        taskQueue,
        workflowId,
        args: [submission],
      }) as Promise<EvaluationResult>,
    );
    assert.equal(result.testsPassed, 4);
    const history = await historyOf(client, workflowId);
    const [outcome] = await replayHistories(await projectWorkflowBundle(), [history]);
    assert.equal(outcome?.clean, true, outcome?.message);
    // The old run scheduled no claim: without the patch, today's code would (and fail to replay it).
    const events = (history.history as temporal.api.history.v1.IHistory).events ?? [];
    const scheduled = events
      .filter((e) => e.activityTaskScheduledEventAttributes)
      .map((e) => e.activityTaskScheduledEventAttributes!.activityType?.name);
    assert.ok(!scheduled.includes('claimSandboxHost') && scheduled.includes('prepareScenario'), scheduled.join());
  });
});
