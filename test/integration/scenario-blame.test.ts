// The evaluation workflow applies the blame table (contracts/blame.ts), on the real Temporal
// server with activities that play each fault: a pack that breaks its own run is scored 0 and the
// evaluation completes; calls failing upstream are tried again and then make the scenario
// `infra_error` and the evaluation `incomplete`; an outage the policy rode out with every test
// passed is scored as it is. No Docker: only the workflow's decisions are under test here.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { passingPreamble, startStandInWorkers, type StandInWorkers } from '../support/stand-in-workers.ts';
import { projectWorkflowBundle } from '../support/shared-workflow-bundle.ts';
import { packFaultTypes } from '../../contracts/failure-types.ts';
import type { AgentRunResult, EvaluationResult, PreparedScenario } from '../../contracts/results.ts';
import type { Submission } from '../../contracts/submission.ts';
import { summarizeEvaluation } from '../../scoring/evaluation-summary.ts';
import { uniqueId } from '../support/evaluation-harness.ts';
import { temporalEndpoint } from '../../infra/temporal-server.ts';

const { address, namespace } = temporalEndpoint();
const artifact = { path: '/dev/null', sha256: '0'.repeat(64), sizeBytes: 0 };

type Behaviour = 'pack_fault' | 'storm' | 'storm_ridden_out' | 'honest';

function activities(runs: Record<string, number>) {
  const behaviour = (name: string) => name as Behaviour;
  const run = (name: string, upstreamFailures: number, faults: number): AgentRunResult => ({
    outcome: 'completed',
    exitCode: 0,
    wallMs: 1,
    outputs: artifact,
    agentLog: artifact,
    outputNotes: [],
    policy: {
      costUsd: 0.01,
      calls: 3,
      agentRequests: 3,
      budgetRefusals: 0,
      upstreamFailures,
      faults: Array.from({ length: faults }, () => ({ kind: 'policy_exception', message: `${name}: upstream failed` })),
      callLog: artifact,
      policyLog: artifact,
    },
  });
  return {
    ...passingPreamble,
    async runScenario(input: { scenario: PreparedScenario }) {
      const name = input.scenario.name;
      runs[name] = (runs[name] ?? 0) + 1;
      switch (behaviour(name)) {
        case 'pack_fault':
          throw ApplicationFailure.create({
            type: packFaultTypes.outputsTooLarge,
            message: 'the outputs passed the archive limit',
            nonRetryable: true,
          });
        case 'storm':
          return run(name, 4, 4);
        case 'storm_ridden_out':
          return run(name, 2, 0);
        default:
          return run(name, 0, 0);
      }
    },
    async verifyScenario(input: { scenario: PreparedScenario }) {
      const passed = behaviour(input.scenario.name) === 'storm' ? 0 : 5;
      return {
        testsPassed: passed,
        testsFailed: 5 - passed,
        testsTotal: 5,
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
}

describe('the evaluation applies the blame table', () => {
  let connection: Connection;
  let client: Client;
  let worker: StandInWorkers;
  let running: Promise<void>;
  const taskQueue = uniqueId('trl-blame');
  const runs: Record<string, number> = {};

  before(async () => {
    connection = await Connection.connect({ address });
    client = new Client({ connection, namespace });
    worker = await startStandInWorkers({
      connection: await NativeConnection.connect({ address }),
      namespace,
      taskQueue,
      workflowBundle: await projectWorkflowBundle(),
      activities: activities(runs),
    });
    running = worker.run();
  });

  after(async () => {
    worker?.shutdown();
    await running;
    await connection?.close();
  });

  const evaluate = (scenarios: Behaviour[]) => {
    const submission: Submission = {
      submissionId: uniqueId('blame'),
      pack: { kind: 'directory', path: '/nowhere' },
      agent: 'loop',
      scenarios,
      seed: 1,
      hotkey: 'h',
    };
    return client.workflow.execute('evaluateSubmission', {
      taskQueue,
      workflowId: uniqueId('blame-eval'),
      args: [submission],
    }) as Promise<EvaluationResult>;
  };

  test('a pack that breaks its own run is scored 0 for it, and the evaluation completes', async () => {
    const result = await evaluate(['pack_fault', 'honest']);
    assert.equal(result.status, 'completed', JSON.stringify(result.perScenario));
    const broken = result.perScenario.find((s) => s.name === 'pack_fault')!;
    assert.equal(broken.status, 'policy_error');
    assert.equal(broken.testsPassed, 0);
    assert.equal(broken.unverified, true);
    assert.match(broken.error ?? '', /pack_outputs_too_large/);
    assert.equal(runs.pack_fault, 1, 'a pack fault is not retried');
  });

  test('calls failing upstream make the scenario infra_error after three tries, and the evaluation incomplete', {
    timeout: 120_000,
  }, async () => {
    const result = await evaluate(['storm', 'storm_ridden_out']);
    assert.equal(result.status, 'incomplete');
    const storm = result.perScenario.find((s) => s.name === 'storm')!;
    assert.equal(storm.status, 'infra_error', JSON.stringify(storm));
    assert.match(storm.error ?? '', /4 model calls failed upstream.*in each of 3 tries/);
    assert.equal(runs.storm, 3);
    assert.equal(storm.costUsd, 0.03, "every try's spend is counted");
    // The policy rode the outage out with every test passed: nothing to blame anyone for.
    const ridden = result.perScenario.find((s) => s.name === 'storm_ridden_out')!;
    assert.equal(ridden.status, 'completed');
    assert.equal(runs.storm_ridden_out, 1);
  });
});
