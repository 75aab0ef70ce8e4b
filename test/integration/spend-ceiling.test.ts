// Invariant 4 end to end: the spend ledger across attempts. A submission ceiling reached stops the
// evaluation from starting paid work (incomplete, with the reason, never scored as a policy
// failure); an attempt whose worker was SIGKILLed after spending is settled from its call log by
// the next worker, and the retried attempt's spend is counted beside it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { NativeConnection, Worker } from '@temporalio/worker';
import { repoRoot, scenarioAttemptDir, spendDir } from '../../common/data-layout.ts';
import { evaluationWorkflowId } from '../../contracts/temporal-names.ts';
import { startEvaluation } from '../../cli/client/start-evaluation.ts';
import type { EvaluationResult, PreparedScenario, ScenarioDescriptor } from '../../contracts/results.ts';
import type { Activities } from '../../activities/index.ts';
import { summarizeEvaluation } from '../../scoring/evaluation-summary.ts';
import { parseSpendLines, type SpendEvent } from '../../gateway/spend/spend-events.ts';
import { readCallLogCost } from '../../gateway/spend/call-log-cost.ts';
import { startWorkerProcess, waitFor } from '../support/worker-process.ts';
import { startHarness, uniqueId, type Harness } from '../support/evaluation-harness.ts';
import { writePack } from '../support/fixture-packs.ts';
import { startStandInWorkers } from '../support/stand-in-workers.ts';

const fixtures = path.join(repoRoot, 'test', 'fixtures', 'scenarios');
const cheapestModelPack = path.join(repoRoot, 'policy', 'examples', 'cheapest-model');

/** Every ledger line of one submission, in the order written (day files in order, lines in order). */
async function ledgerEvents(submissionId: string): Promise<SpendEvent[]> {
  const files = (await readdir(spendDir).catch(() => [] as string[])).filter((n) => n.endsWith('.jsonl')).sort();
  const events: SpendEvent[] = [];
  for (const file of files) events.push(...parseSpendLines(await readFile(path.join(spendDir, file), 'utf8')).events);
  return events.filter((e) => e.submissionId === submissionId);
}

describe('spend ledger and ceilings', () => {
  let harness: Harness;
  const workers: ChildProcess[] = [];

  before(async () => {
    // The hosted worker of this file reads its config now: a submission ceiling of one scenario cap.
    const previous = process.env.TRL_SUBMISSION_CEILING_USD;
    process.env.TRL_SUBMISSION_CEILING_USD = '1';
    try {
      harness = await startHarness();
    } finally {
      if (previous === undefined) delete process.env.TRL_SUBMISSION_CEILING_USD;
      else process.env.TRL_SUBMISSION_CEILING_USD = previous;
    }
  });
  after(async () => {
    for (const worker of workers) worker.kill('SIGKILL');
    await harness?.close();
  });

  test('a submission ceiling of one scenario cap: one scenario runs, the others are not paid for, the evaluation is incomplete', async () => {
    const submissionId = uniqueId('ceiling');
    const scenarios = ['csv-sales-report', 'log-incident-summary', 'semver-range-matcher'];
    const result = await harness.evaluate({
      submissionId,
      pack: { kind: 'directory', path: cheapestModelPack },
      agent: 'loop',
      scenarios,
      seed: 1,
    });

    const ran = result.perScenario.filter((s) => s.status !== 'ceiling_reached');
    const stopped = result.perScenario.filter((s) => s.status === 'ceiling_reached');
    assert.equal(ran.length, 1, JSON.stringify(result.perScenario.map((s) => [s.name, s.status, s.error])));
    assert.ok(ran[0]!.testsTotal > 0 && ran[0]!.costUsd > 0, JSON.stringify(ran[0]));
    assert.equal(stopped.length, 2);
    for (const scenario of stopped) {
      assert.match(
        scenario.error ?? '',
        /per-submission spend ceiling of \$1\.0000 .* reached: \$\d+\.\d{4} spent \+ \$\d+\.\d{4} reserved by open attempts \+ \$1\.0000 for this attempt/,
      );
      assert.equal(scenario.testsPassed, 0);
      assert.equal(scenario.costUsd, 0);
    }
    assert.equal(result.status, 'incomplete');
    assert.match(result.stoppedReason ?? '', /per-submission spend ceiling/);

    // The ledger holds exactly the one paid attempt: reserved at the cap, settled at its cost.
    const events = await ledgerEvents(submissionId);
    assert.deepEqual(
      events.map((e) => [e.kind, e.scenario]),
      [
        ['reserve', ran[0]!.name],
        ['settle', ran[0]!.name],
      ],
    );
    const [reserve, settle] = events;
    assert.ok(reserve?.kind === 'reserve' && reserve.amountUsd === 1);
    assert.ok(settle?.kind === 'settle' && settle.source === 'gateway');
    assert.ok(Math.abs(settle.costUsd - ran[0]!.costUsd) < 1e-6, `${settle.costUsd} vs ${ran[0]!.costUsd}`);
    assert.equal(result.ledgerCostUsd, result.costUsd);

    const description = await harness.client.workflow.getHandle(evaluationWorkflowId(submissionId)).describe();
    const memo = description.memo as { result?: { status?: string; stoppedReason?: string } };
    assert.equal(memo.result?.status, 'incomplete');
    assert.match(memo.result?.stoppedReason ?? '', /spend ceiling/);
  });

  test('a worker killed after its attempt spent: the next worker settles it from the call log, and the retry is counted too', async () => {
    // Spends once, then holds the answer long enough for the worker to be killed mid-attempt: 25 s,
    // past the scenario's 20 s heartbeat timeout, so the retried attempt also shows that a policy
    // slow to answer does not get its attempt timed out and retried (workers/steady-heartbeat.ts).
    const pack = await writePack({
      'SKILL.md': '# spend-then-wait\n',
      'policy.ts': [
        "import { definePolicy, textCompletion } from 'trl-policy-sdk';",
        'export default definePolicy({',
        '  async complete(request, ctx) {',
        '    for (let i = 0; i < 5; i++) {',
        "      try { await ctx.call('qwen3.6-35b-a3b', request, { maxTokens: 64 }); break; } catch { /* an injected upstream error: try again */ }",
        '    }',
        '    await new Promise((resolve) => setTimeout(resolve, 25_000));',
        "    return textCompletion('done');",
        '  },',
        '});',
        '',
      ].join('\n'),
    });
    const taskQueue = uniqueId('trl-test-spend');
    const first = await startWorkerProcess(taskQueue, { TRL_SUBMISSION_CEILING_USD: undefined });
    workers.push(first);
    const submissionId = uniqueId('spend-retry');
    const workflowId = evaluationWorkflowId(submissionId);
    const handle = await startEvaluation(
      harness.client,
      {
        submissionId,
        pack: { kind: 'directory', path: pack },
        scenariosDir: fixtures,
        scenarios: ['slow-writer'],
        agent: 'loop',
      },
      taskQueue,
    );

    const firstCallLog = path.join(scenarioAttemptDir(workflowId, 'slow-writer', 'agent', 1), 'model-calls.jsonl');
    await waitFor(
      async () => {
        const cost = await readCallLogCost(firstCallLog);
        return cost && cost.costUsd > 0 ? cost : undefined;
      },
      180_000,
      'a paid call in the first attempt',
    );
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const spentBeforeKill = (await readCallLogCost(firstCallLog))!;
    const open = await ledgerEvents(submissionId);
    assert.deepEqual(
      open.map((e) => e.kind),
      ['reserve'],
      'the killed attempt is still reserved at the cap',
    );

    const second = await startWorkerProcess(taskQueue, { TRL_SUBMISSION_CEILING_USD: undefined });
    workers.push(second);
    const result: EvaluationResult = await handle.result();
    second.kill('SIGTERM');

    const events = await ledgerEvents(submissionId);
    // The killed worker's host queue is gone: the scenario started over from a new claim on the
    // next worker's host (docs/explanation/roles-and-queues.md), a new activity, so a new attempt id.
    assert.deepEqual(
      events.map((e) => e.kind),
      ['reserve', 'settle', 'reserve', 'settle'],
    );
    assert.equal(events[0]!.attemptId, events[1]!.attemptId);
    assert.equal(events[2]!.attemptId, events[3]!.attemptId);
    assert.notEqual(events[0]!.attemptId, events[2]!.attemptId);
    const [, recovered, , final] = events;
    assert.ok(recovered?.kind === 'settle' && recovered.source === 'call-log', JSON.stringify(recovered));
    assert.ok(Math.abs(recovered.costUsd - spentBeforeKill.costUsd) < 1e-12);
    assert.ok(final?.kind === 'settle' && final.source === 'gateway' && final.costUsd > 0, JSON.stringify(final));

    const scenario = result.perScenario[0]!;
    assert.ok(Math.abs(scenario.costUsd - final.costUsd) < 1e-9, 'the result costs the final attempt');
    assert.ok(result.ledgerCostUsd !== undefined);
    assert.ok(
      Math.abs(result.ledgerCostUsd - (recovered.costUsd + final.costUsd)) < 1e-6,
      `${result.ledgerCostUsd} vs ${recovered.costUsd} + ${final.costUsd}`,
    );
    assert.ok(result.ledgerCostUsd > result.costUsd, 'the retried attempt is counted');
  });

  test('scenarios not yet started when the ceiling is reached are recorded as not run, with the reason in the result and the memo', async () => {
    // The real workflow on the real server, with stand-in activities: 'a' is refused by the ceiling
    // while 'b' and 'c' are still preparing, so neither may be sent to runScenario.
    const ref = { path: '/dev/null', sha256: '0'.repeat(64), sizeBytes: 0 };
    const ran: string[] = [];
    let refused!: () => void;
    const refusal = new Promise<void>((resolve) => (refused = resolve));
    const prepared = (s: ScenarioDescriptor): PreparedScenario => ({
      name: s.name,
      dir: s.dir,
      imageTag: 'x',
      category: 'c',
      difficulty: 'easy',
      agentTimeoutSec: 10,
      agentMaxTurns: 5,
      verifierTimeoutSec: 10,
      cpus: 1,
      memoryMb: 256,
      agentOutputs: [],
    });
    const activities: Partial<Activities> = {
      fetchPack: async () => ({ packHash: 'h'.repeat(8), canonical: ref, fileCount: 1, name: 'stand-in', bundle: ref }),
      preEval: async () => ({ verdict: 'pass', report: ref }),
      probePolicy: async () => ({ verdict: 'pass', report: ref, conversations: 0 }),
      resolveScenarios: async () => ({
        spec: null,
        scenarios: ['a', 'b', 'c'].map((name) => ({ name, dir: `/${name}` })),
      }),
      prepareScenario: async (s) => {
        if (s.name !== 'a') await refusal.then(() => new Promise((resolve) => setTimeout(resolve, 1500)));
        return prepared(s);
      },
      runScenario: async (request) => {
        ran.push(request.scenario.name);
        refused();
        throw ApplicationFailure.create({
          type: 'spend_ceiling_reached',
          nonRetryable: true,
          message: 'daily spend ceiling of $5.0000 (UTC day 2026-03-01) reached: stand-in',
        });
      },
      verifyScenario: async () => {
        throw new Error('nothing may be verified');
      },
      aggregate: async (input) => ({ ...summarizeEvaluation(input), ledgerCostUsd: 0 }),
    };
    const connection = await NativeConnection.connect({ address: harness.address });
    const taskQueue = uniqueId('trl-test-standin');
    const worker = await startStandInWorkers({
      connection,
      namespace: harness.namespace,
      taskQueue,
      workflowBundle: harness.bundle,
      activities,
    });
    const submissionId = uniqueId('not-run');
    try {
      const result = await worker.runUntil(async () => {
        const handle = await startEvaluation(
          harness.client,
          { submissionId, pack: { kind: 'directory', path: '/stand-in' }, agent: 'loop' },
          taskQueue,
        );
        return handle.result();
      });
      assert.deepEqual(ran, ['a'], 'only the first scenario reached runScenario');
      assert.deepEqual(
        result.perScenario.map((s) => [s.name, s.status]),
        [
          ['a', 'ceiling_reached'],
          ['b', 'ceiling_reached'],
          ['c', 'ceiling_reached'],
        ],
      );
      assert.match(result.perScenario[0]!.error ?? '', /^agent: daily spend ceiling/);
      for (const s of result.perScenario.slice(1)) assert.match(s.error ?? '', /^not run: daily spend ceiling/);
      assert.equal(result.status, 'incomplete');
      assert.match(result.stoppedReason ?? '', /daily spend ceiling/);
      const memo = (await harness.client.workflow.getHandle(evaluationWorkflowId(submissionId)).describe()).memo as {
        result?: { stoppedReason?: string };
      };
      assert.match(memo.result?.stoppedReason ?? '', /daily spend ceiling/);
      // The run replays without determinism errors.
      const history = await harness.client.workflow.getHandle(evaluationWorkflowId(submissionId)).fetchHistory();
      await Worker.runReplayHistory({ workflowBundle: harness.bundle }, history, evaluationWorkflowId(submissionId));
    } finally {
      await connection.close();
    }
  });
});
