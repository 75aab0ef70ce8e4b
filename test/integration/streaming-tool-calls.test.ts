// Streaming with tool calls, end to end: agent client → policy host (sandboxed example policy) →
// gateway → sim fleet, and the gateway's own HTTP face streaming straight from the sim fleet.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { repoRoot } from '../../common/data-layout.ts';
import { createDockerClient } from '../../sandbox/docker-client.ts';
import { bootstrap, type BootstrapResult } from '../../infra/bootstrap.ts';
import { currentWorkerIdentity } from '../../sandbox/worker-identity.ts';
import { loadAllowlist } from '../../gateway/catalog/allowlist.ts';
import { readPackDirectory } from '../../packs/read-pack.ts';
import { bundlePack } from '../../packs/bundle-pack.ts';
import { startPolicyRun } from '../../policy/host/policy-run.ts';
import { ModelGateway } from '../../gateway/model-gateway.ts';
import { CallLog } from '../../gateway/call-log.ts';
import { serveGateway } from '../../gateway/gateway-server.ts';
import { startSimFleet, type SimFleet } from '../../simfleet/sim-fleet-server.ts';

const docker = createDockerClient();
const terminalTool = {
  type: 'function' as const,
  function: {
    name: 'terminal',
    description: 'run a shell command',
    parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  },
};

async function collect(stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>) {
  let content = '';
  const calls: { id?: string; name: string; arguments: string }[] = [];
  let usage: unknown;
  let finish: string | null | undefined;
  let usageWasLast = false;
  for await (const chunk of stream) {
    usageWasLast = Boolean(chunk.usage) && chunk.choices.length === 0;
    if (chunk.usage) usage = chunk.usage;
    for (const choice of chunk.choices) {
      content += choice.delta.content ?? '';
      for (const delta of choice.delta.tool_calls ?? []) {
        const call = (calls[delta.index] ??= { name: '', arguments: '' });
        if (delta.id) call.id = delta.id;
        call.name += delta.function?.name ?? '';
        call.arguments += delta.function?.arguments ?? '';
      }
      finish = choice.finish_reason ?? finish;
    }
  }
  return { content, calls, usage, finish, usageWasLast };
}

describe('streaming with tool calls', () => {
  let stack: BootstrapResult;
  let fleet: SimFleet;
  let instruction: string;

  before(async () => {
    stack = await bootstrap(docker);
    fleet = await startSimFleet({ timeScale: 0, mode: 'fast' });
    instruction = await readFile(path.join(repoRoot, 'scenarios', 'csv-sales-report', 'instruction.md'), 'utf8');
  });
  after(async () => fleet?.close());

  test('agent → policy host → gateway → sim fleet: streamed tool-call deltas equal the whole answer', async () => {
    const bundle = await bundlePack(await readPackDirectory(path.join(repoRoot, 'policy', 'examples', 'single-model')));
    const run = await startPolicyRun({
      docker,
      owner: currentWorkerIdentity(),
      workflowId: `streaming-${process.pid}`,
      scenario: 'streaming',
      policyImage: stack.policyImage,
      bundleCode: bundle.code,
      allowlist: loadAllowlist(),
      upstream: new OpenAI({ baseURL: fleet.url, apiKey: 'x', maxRetries: 0 }),
      capUsd: 1,
      seed: 3,
      dir: await mkdtemp(path.join(os.tmpdir(), 'trl-stream-')),
      bindHost: '127.0.0.1',
      requestTimeoutMs: 30_000,
    });
    try {
      const agent = new OpenAI({ baseURL: run.endpoint.url, apiKey: 'none', maxRetries: 0 });
      const request = {
        model: 'auto',
        messages: [{ role: 'user' as const, content: instruction }],
        tools: [terminalTool],
      };
      const whole = await agent.chat.completions.create(request);
      const streamed = await collect(
        await agent.chat.completions.create({ ...request, stream: true, stream_options: { include_usage: true } }),
      );
      const wholeCalls = whole.choices[0]!.message.tool_calls ?? [];
      assert.ok(wholeCalls.length > 0, 'the sim fleet should answer a scenario with a tool call');
      assert.deepEqual(
        streamed.calls,
        wholeCalls.map((c) => ({
          id: c.id,
          name: (c as { function: { name: string } }).function.name,
          arguments: (c as { function: { arguments: string } }).function.arguments,
        })),
      );
      assert.equal(streamed.finish, 'tool_calls');
      assert.ok(streamed.usageWasLast, 'usage comes in the last chunk when asked for');
    } finally {
      const summary = await run.stop();
      assert.equal(summary.agentRequests, 2);
      assert.ok(summary.costUsd > 0);
      assert.deepEqual(summary.faults, []);
    }
  });

  test('the gateway streams upstream tool-call deltas, settles from the usage chunk and logs the call', async () => {
    const callLog = new CallLog();
    const gateway = new ModelGateway({
      allowlist: loadAllowlist(),
      upstream: new OpenAI({ baseURL: fleet.url, apiKey: 'x', maxRetries: 0 }),
      capUsd: 1,
      callLog,
      seed: 3,
    });
    const server = await serveGateway(gateway, { host: '127.0.0.1', token: 'run-token' });
    try {
      const client = new OpenAI({ baseURL: server.url, apiKey: 'run-token', maxRetries: 0 });
      const request = {
        model: 'glm-5.2',
        messages: [{ role: 'user' as const, content: instruction }],
        tools: [terminalTool],
      };
      const whole = await client.chat.completions.create(request);
      const streamed = await collect(await client.chat.completions.create({ ...request, stream: true }));
      assert.equal(
        streamed.calls[0]?.arguments,
        (whole.choices[0]!.message.tool_calls![0] as { function: { arguments: string } }).function.arguments,
      );
      assert.ok(streamed.usage, 'the gateway always asks for usage when streaming');
      const [first, second] = callLog.entries;
      assert.equal(first?.streamed, false);
      assert.equal(second?.streamed, true);
      assert.ok(
        second!.costUsd > 0 && Math.abs(second!.costUsd - first!.costUsd) < 1e-12,
        'the same call costs the same streamed or not',
      );
      await assert.rejects(new OpenAI({ baseURL: server.url, apiKey: 'wrong', maxRetries: 0 }).models.list(), /401/);
      await assert.rejects(client.chat.completions.create({ ...request, model: 'not-allowed' }), /400/);
    } finally {
      await server.close();
    }
  });
});
