// A call the policy abandons is the policy's (issue 36, contracts/blame.ts): each hostile pack of
// test/fixtures/hostile/unawaited-* — TypeScript in the pipe sandbox, Python on the SDK and raw
// Python in the sidecar — fires six calls to the dearest model on every request and never awaits
// them. An upstream that holds those calls until the caller goes keeps them in flight when the
// agent's last turn is answered. When the episode ends they are cut by the validator, charged,
// booked with an end row saying `abandoned`, and never counted as upstream failures: the scenario
// is scored as it stands. The books agree to the nano-dollar: the result's cost, what goes to the
// spend ledger and the sum of the call log's end rows.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../common/data-layout.ts';
import { createDockerClient } from '../../sandbox/docker-client.ts';
import { bootstrap, type BootstrapResult } from '../../infra/bootstrap.ts';
import { currentWorkerIdentity } from '../../sandbox/worker-identity.ts';
import { loadAllowlist } from '../../gateway/catalog/allowlist.ts';
import { ensureScenarioImage } from '../../sandbox/scenario-image.ts';
import { loadScenario } from '../../catalog/load-scenario.ts';
import { preparedScenarioOf } from '../support/prepared-scenario.ts';
import { startAgentEnvironment, type PolicySource } from '../../activities/agent-environment.ts';
import type { ActivityDependencies } from '../../activities/activity-context.ts';
import { SpendLedger } from '../../gateway/spend/spend-ledger.ts';
import { gatewaySpendUsd } from '../../gateway/spend/attempt-spend.ts';
import { HttpChatUpstream } from '../../gateway/upstream/http-chat-upstream.ts';
import { listenOn } from '../../gateway/http/listen.ts';
import { readPackDirectory } from '../../packs/read-pack.ts';
import { bundlePack } from '../../packs/bundle-pack.ts';
import { scenarioStatusOf } from '../../contracts/blame.ts';
import type { EvaluationResult, PreparedScenario } from '../../contracts/results.ts';
import { startHarness, type Harness } from '../support/evaluation-harness.ts';

const docker = createDockerClient();
const hostile = path.join(repoRoot, 'test', 'fixtures', 'hostile');
const runId = `abandoned-${process.pid}`;

/**
 * The upstream: a request whose prompt says SLOW-CALL is held until its caller goes away (never
 * answered, never billed by usage); every other request is answered at once with a short final
 * text, so the tool-loop agent finishes after its first turn.
 */
async function startHoldingUpstream() {
  const held = { now: 0, total: 0 };
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      const body = JSON.parse(text) as { model: string; stream?: boolean };
      if (text.includes('SLOW-CALL')) {
        held.now += 1;
        held.total += 1;
        response.on('close', () => (held.now -= 1));
        return;
      }
      const usage = { prompt_tokens: 120, completion_tokens: 8, total_tokens: 128 };
      const message = { role: 'assistant', content: 'The task is done.' };
      if (!body.stream) {
        return void response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: 'answer',
            object: 'chat.completion',
            created: 0,
            model: body.model,
            choices: [{ index: 0, message, finish_reason: 'stop' }],
            usage,
          }),
        );
      }
      const chunk = (extra: object) =>
        `data: ${JSON.stringify({ id: 'answer', object: 'chat.completion.chunk', created: 0, model: body.model, ...extra })}\n\n`;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(chunk({ choices: [{ index: 0, delta: message, finish_reason: null }] }));
      response.write(chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }));
      response.end(`${chunk({ choices: [], usage })}data: [DONE]\n\n`);
    });
  });
  const listening = await listenOn(server, '127.0.0.1');
  return { url: `${listening.url}/v1`, held, close: () => listening.close() };
}

async function packFiles(name: string): Promise<Record<string, string>> {
  const dir = path.join(hostile, name);
  const files: Record<string, string> = {};
  for (const file of await readdir(dir)) files[file] = await readFile(path.join(dir, file), 'utf8');
  return files;
}

describe('calls a policy abandons', () => {
  let stack: BootstrapResult;
  let upstream: Awaited<ReturnType<typeof startHoldingUpstream>>;
  let deps: ActivityDependencies;
  let scenario: PreparedScenario;
  let instruction: string;

  before(async () => {
    stack = await bootstrap(docker);
    upstream = await startHoldingUpstream();
    const folder = await loadScenario(path.join(repoRoot, 'scenarios', 'csv-sales-report'));
    instruction = folder.instruction;
    scenario = preparedScenarioOf(folder, await ensureScenarioImage(docker, stack.baseImage, folder), {
      agentTimeoutSec: 120,
      agentMaxTurns: 5,
    });
    deps = {
      docker,
      owner: currentWorkerIdentity(),
      baseImageTag: stack.baseImage,
      maxAgentOutputBytes: 1 << 24,
      allowlist: loadAllowlist(),
      upstream: new HttpChatUpstream({ baseURL: upstream.url, apiKey: 'upstream-key', timeoutMs: 120_000 }),
      policyImage: stack.policyImage,
      sidecarImage: stack.sidecarImage,
      budgetCapUsd: 1,
      policyRequestTimeoutMs: 60_000,
      spendLedger: await SpendLedger.open({
        dir: await mkdtemp(path.join(os.tmpdir(), 'trl-spend-')),
        ceilings: { submissionUsd: 30, dailyUsd: 500 },
      }),
    };
  });
  after(async () => upstream?.close());

  const kinds: [string, () => Promise<PolicySource>][] = [
    [
      'unawaited-ts',
      async () => ({
        kind: 'typescript',
        bundleCode: (await bundlePack(await readPackDirectory(path.join(hostile, 'unawaited-ts')))).code,
      }),
    ],
    ['unawaited-python-sdk', async () => ({ kind: 'python', files: await packFiles('unawaited-python-sdk') })],
    ['unawaited-raw-python', async () => ({ kind: 'python', files: await packFiles('unawaited-raw-python') })],
  ];
  for (const [name, source] of kinds) {
    test(`${name}: calls a policy leaves in flight are abandoned, charged and booked, and the scenario is scored as it stands`, async () => {
      const heldBefore = upstream.held.total;
      const environment = await startAgentEnvironment(deps, {
        scenario,
        agent: 'loop',
        policy: await source(),
        seed: 0,
        workflowId: `${runId}-${name}`,
        dir: await mkdtemp(path.join(os.tmpdir(), `trl-${name}-`)),
        deadlineMs: performance.now() + 120_000,
      });
      assert.equal(environment.startFailure, undefined, environment.startFailure?.message);
      const record = await environment.agent.run({
        session: environment.session,
        task: { scenario: scenario.name, scenarioDir: scenario.dir, instruction, workdir: '/app' },
        deadlineMs: performance.now() + 120_000,
        signal: environment.stopSignal,
      });
      assert.equal(record.exitCode, 0, record.transcript.slice(-2000));
      // The agent's one turn is answered; its six slow calls are still held upstream.
      const deadline = Date.now() + 20_000;
      while (upstream.held.now < 6 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(upstream.held.now, 6, 'six calls in flight when the episode ends');
      const ledgerAmount = () => gatewaySpendUsd(environment.policyRun!.gateway.ledger);
      const summary = (await environment.close())!;

      const rows = (await readFile(summary.callLog.path, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { phase: string; errorType?: string; costUsd: number; model: string });
      const starts = rows.filter((row) => row.phase === 'start');
      const ends = rows.filter((row) => row.phase === 'end');
      assert.equal(starts.length, 7, 'the answer and the six slow calls');
      assert.equal(ends.length, 7, 'every started call has its end row');
      const abandoned = ends.filter((row) => row.errorType === 'abandoned');
      assert.equal(abandoned.length, 6, JSON.stringify(ends.map((row) => [row.model, row.errorType])));
      assert.ok(
        abandoned.every((row) => row.model === 'kimi-k3' && row.costUsd > 0),
        'charged their reservations',
      );
      assert.equal(summary.upstreamFailures, 0, 'never the upstream failures');
      assert.equal(summary.abandonedCalls, 6);
      assert.equal(upstream.held.total - heldBefore, 6);

      // The books, to the nano-dollar: the result's cost, the spend ledger's settlement, the call log.
      const nano = (usd: number) => Math.round(usd * 1e9);
      const logged = ends.reduce((sum, row) => sum + nano(row.costUsd), 0);
      assert.equal(nano(summary.costUsd), logged, 'result = call log');
      assert.equal(nano(ledgerAmount()), logged, 'spend ledger = call log');
      assert.ok(summary.costUsd > 0);

      // Scored as it stands: a run that completed is `completed`, never infra_error.
      const status = scenarioStatusOf({ outcome: 'completed', policy: summary }, { testsPassed: 0, testsTotal: 4 });
      assert.equal(status.status, 'completed', status.reason);
      console.log(
        `${name}: ${abandoned.length} abandoned, upstream failures ${summary.upstreamFailures}, ` +
          `result $${summary.costUsd.toFixed(9)}, ledger $${ledgerAmount().toFixed(9)}, call log $${(logged / 1e9).toFixed(9)}`,
      );
    });
  }
});

// The same packs through the whole evaluation (Temporal, worker, sim fleet, verifier): whatever
// their un-awaited calls were doing when the episode ended, the scenario is scored as it stands —
// never infra_error, and the evaluation is never incomplete.
describe('un-awaited calls through the whole evaluation', () => {
  let harness: Harness;
  const results = new Map<string, EvaluationResult>();

  before(async () => {
    harness = await startHarness();
    await Promise.all(
      ['unawaited-ts', 'unawaited-python-sdk', 'unawaited-raw-python'].map(async (name) =>
        results.set(
          name,
          await harness.evaluate({
            pack: { kind: 'directory', path: path.join(hostile, name) },
            agent: 'loop',
            scenarios: ['csv-sales-report'],
            seed: 2,
          }),
        ),
      ),
    );
  });
  after(async () => harness?.close());

  test('each kind: completed, scored as it stands, the books agree', () => {
    for (const [name, result] of results) {
      assert.equal(result.status, 'completed', `${name}: ${JSON.stringify(result.rejection ?? result.perScenario)}`);
      const scenario = result.perScenario[0]!;
      assert.notEqual(scenario.status, 'infra_error', `${name}: ${scenario.error}`);
      console.log(
        `${name} (evaluation): ${scenario.status}, ${scenario.testsPassed}/${scenario.testsTotal} tests, $${scenario.costUsd}`,
      );
    }
  });
});
