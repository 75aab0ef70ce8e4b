// `trl serve` end to end: the openai npm client → the front server → a real policy instance (the
// cost-cascade example in its TypeScript pipe sandbox) → its metered gateway → the sim fleet.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import OpenAI from 'openai';
import { repoRoot, serveShadowLogFile, serveShadowSummaryFile } from '../../common/data-layout.ts';
import { packHash } from '../../packs/canonical-pack.ts';
import { hermesConfig } from '../../agents/hermes-agent.ts';
import { createDockerClient } from '../../sandbox/docker-client.ts';
import { bootstrap } from '../../infra/bootstrap.ts';
import { containerLabels } from '../../sandbox/container-labels.ts';
import { readPackDirectory } from '../../packs/read-pack.ts';
import { startSimFleet, type SimFleet } from '../../simfleet/sim-fleet-server.ts';
import { startServing, type Serving } from '../../workers/serve-policy.ts';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import { addApiKey, readApiKeys } from '../../serving/api-keys.ts';
import { createKeyGate } from '../../serving/key-gate.ts';

const docker = createDockerClient();
const terminalTool = {
  type: 'function' as const,
  function: {
    name: 'terminal',
    description: 'run a shell command',
    parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  },
};
const system = { role: 'system' as const, content: 'You are a coding agent with a terminal.' };

describe('trl serve', () => {
  let fleet: SimFleet;
  let serving: Serving;
  let client: OpenAI;
  let instruction: string;
  let policyImage: string;
  let baseImage: string;

  before(async () => {
    const stack = await bootstrap(docker);
    policyImage = stack.policyImage;
    baseImage = stack.baseImage;
    fleet = await startSimFleet({ timeScale: 0, mode: 'fast' });
    instruction = await readFile(path.join(repoRoot, 'scenarios', 'csv-sales-report', 'instruction.md'), 'utf8');
    serving = await startServing({
      pack: await readPackDirectory(path.join(repoRoot, 'policy', 'examples', 'cost-cascade')),
      docker,
      policyImage: stack.policyImage,
      sidecarImage: stack.sidecarImage,
      upstream: new OpenAI({ baseURL: fleet.url, apiKey: 'x', maxRetries: 0 }),
      settings: {
        host: '127.0.0.1',
        port: 0,
        maxInstances: 3,
        idleSec: 600,
        instanceCapUsd: 20,
        requestTimeoutSec: 60,
        drainSec: 60,
      },
    });
    client = new OpenAI({ baseURL: serving.server.url, apiKey: 'none', maxRetries: 0 });
  });
  after(async () => {
    await serving?.close();
    await fleet?.close();
    const left = await docker.listContainers({
      all: true,
      filters: { label: [`${containerLabels.scenario}=serve`, `${containerLabels.workerPid}=${process.pid}`] },
    });
    assert.deepEqual(
      left.map((c) => c.Id),
      [],
      'closing the server removes every instance container',
    );
  });

  const task = () => [system, { role: 'user' as const, content: instruction }];

  test('GET /v1/models lists the one model, auto', async () => {
    const models = await client.models.list();
    assert.deepEqual(
      models.data.map((m) => m.id),
      ['auto'],
    );
  });

  test('a non-streamed request with tools: the tool call, its cost and models in headers and usage', async () => {
    const { data, response } = await client.chat.completions
      .create({ model: 'auto', messages: task(), tools: [terminalTool] })
      .withResponse();
    const call = data.choices[0]!.message.tool_calls?.[0] as
      | { function: { name: string; arguments: string } }
      | undefined;
    assert.equal(call?.function.name, 'terminal');
    assert.ok(JSON.parse(call!.function.arguments).command, 'a terminal command');
    const costUsd = Number(response.headers.get('x-trl-cost-usd'));
    assert.ok(costUsd > 0, 'the request cost something');
    assert.equal(response.headers.get('x-trl-models'), 'qwen3.6-35b-a3b', 'cost-cascade starts on its cheap model');
    const usage = data.usage as unknown as {
      cost_usd: number;
      models: string[];
      prompt_tokens: number;
      completion_tokens: number;
      total_tokens: number;
    };
    assert.equal(usage.cost_usd, costUsd);
    assert.deepEqual(usage.models, ['qwen3.6-35b-a3b']);
    assert.ok(usage.prompt_tokens > 0 && usage.total_tokens === usage.prompt_tokens + usage.completion_tokens);
  });

  test('a streamed request of the same conversation reaches the same instance; usage comes last', async () => {
    const first = await client.chat.completions
      .create({ model: 'auto', messages: task(), tools: [terminalTool] })
      .withResponse();
    const { data: stream, response } = await client.chat.completions
      .create({
        model: 'auto',
        messages: task(),
        tools: [terminalTool],
        stream: true,
        stream_options: { include_usage: true },
      })
      .withResponse();
    let name = '';
    let usage: { cost_usd?: number } | undefined;
    for await (const chunk of stream) {
      for (const choice of chunk.choices)
        for (const delta of choice.delta.tool_calls ?? []) name += delta.function?.name ?? '';
      if (chunk.usage) usage = chunk.usage as { cost_usd?: number };
    }
    assert.equal(name, 'terminal');
    assert.equal(response.headers.get('x-trl-instance'), first.response.headers.get('x-trl-instance'));
    assert.ok((usage?.cost_usd ?? 0) > 0);
    assert.equal(usage?.cost_usd, Number(response.headers.get('x-trl-cost-usd')));
  });

  test('two conversations run on two instances', async () => {
    const one = await client.chat.completions
      .create({ model: 'auto', messages: [system, { role: 'user', content: 'Task one: list the files.' }] })
      .withResponse();
    const two = await client.chat.completions
      .create({ model: 'auto', messages: [system, { role: 'user', content: 'Task two: count the lines.' }] })
      .withResponse();
    assert.notEqual(one.response.headers.get('x-trl-instance'), two.response.headers.get('x-trl-instance'));
    assert.notEqual(one.response.headers.get('x-trl-session'), two.response.headers.get('x-trl-session'));
  });

  test('a killed instance: its request gets a clear error at once, the next request a fresh instance', async () => {
    const messages = [system, { role: 'user' as const, content: 'Task three: show the disk usage.' }];
    const first = await client.chat.completions.create({ model: 'auto', messages }).withResponse();
    const instance = first.response.headers.get('x-trl-instance')!;
    const [container] = await docker.listContainers({
      filters: { label: [`${containerLabels.workflowId}=serve-${serving.runId}-${instance}`] },
    });
    assert.ok(container, 'the instance runs in its own container');
    await docker.getContainer(container.Id).kill();
    await assert.rejects(client.chat.completions.create({ model: 'auto', messages }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.APIError);
      assert.equal(error.status, 502);
      assert.match(
        error.message,
        new RegExp(
          `policy instance ${instance} .*failed.*next request of this conversation starts on a fresh instance`,
        ),
      );
      return true;
    });
    const again = await client.chat.completions.create({ model: 'auto', messages }).withResponse();
    assert.notEqual(again.response.headers.get('x-trl-instance'), instance);
    assert.ok(again.data.choices[0]!.message);
  });

  test('another model name is refused with a clear message', async () => {
    await assert.rejects(
      client.chat.completions.create({ model: 'gpt-4o', messages: task() }),
      /404.*only model is "auto"/,
    );
  });

  test('with API keys: no key is 401, a key is served and logged, its spend limit then refuses with 402', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-serve-keys-'));
    const keysFile = path.join(dir, 'api-keys.json');
    const { key, secret } = await addApiKey(keysFile, { label: 'test', spendLimitUsd: 1e-9 });
    const logOf = (id: string) => path.join(dir, `${id}.jsonl`);
    const gated = await startServing({
      pack: await readPackDirectory(path.join(repoRoot, 'policy', 'examples', 'cost-cascade')),
      docker,
      policyImage,
      upstream: new OpenAI({ baseURL: fleet.url, apiKey: 'x', maxRetries: 0 }),
      settings: {
        host: '127.0.0.1',
        port: 0,
        maxInstances: 1,
        idleSec: 600,
        instanceCapUsd: 5,
        requestTimeoutSec: 60,
        drainSec: 60,
      },
      gate: await createKeyGate(await readApiKeys(keysFile), logOf),
    });
    try {
      const messages = [system, { role: 'user' as const, content: 'Task four: print the date.' }];
      await assert.rejects(
        new OpenAI({ baseURL: gated.server.url, apiKey: 'trl-sk-wrong', maxRetries: 0 }).chat.completions.create({
          model: 'auto',
          messages,
        }),
        (error: unknown) => error instanceof OpenAI.APIError && error.status === 401,
      );
      const keyed = new OpenAI({ baseURL: gated.server.url, apiKey: secret, maxRetries: 0 });
      const { response } = await keyed.chat.completions.create({ model: 'auto', messages }).withResponse();
      const logged = JSON.parse((await readFile(logOf(key.id), 'utf8')).trim()) as {
        status: number;
        costUsd: number;
        models: string[];
      };
      assert.equal(logged.status, 200);
      assert.equal(logged.costUsd, Number(response.headers.get('x-trl-cost-usd')));
      assert.deepEqual(logged.models, ['qwen3.6-35b-a3b']);
      await assert.rejects(
        keyed.chat.completions.create({ model: 'auto', messages }),
        (error: unknown) => error instanceof OpenAI.APIError && error.status === 402 && /limit/.test(error.message),
      );
    } finally {
      await gated.close();
    }
  });

  test('the seat changes hands: open conversations finish on the old policy until the drain deadline; a shadow records the challenger', async () => {
    const incumbent = await readPackDirectory(path.join(repoRoot, 'policy', 'examples', 'cost-cascade'));
    const successor = await readPackDirectory(path.join(repoRoot, 'policy', 'examples', 'cheapest-model'));
    const challenger = await readPackDirectory(path.join(repoRoot, 'policy', 'examples', 'single-model'));
    const drainSec = 4;
    const handed = await startServing({
      pack: incumbent,
      docker,
      policyImage,
      upstream: new OpenAI({ baseURL: fleet.url, apiKey: 'x', maxRetries: 0 }),
      settings: {
        host: '127.0.0.1',
        port: 0,
        maxInstances: 2,
        idleSec: 600,
        instanceCapUsd: 5,
        requestTimeoutSec: 60,
        drainSec,
      },
      shadow: { pack: challenger, sampleRate: 1, capUsd: 1 },
    });
    try {
      const served = new OpenAI({ baseURL: handed.server.url, apiKey: 'none', maxRetries: 0 });
      // One mirror in flight at a time (the shadow has one instance): each ask waits for its mirror.
      const ask = async (content: string) => {
        const { response } = await served.chat.completions
          .create({ model: 'auto', messages: [system, { role: 'user', content }] })
          .withResponse();
        await handed.shadow!.settle();
        return response.headers.get('x-trl-pack');
      };
      const open = 'Task five: tidy the logs.';
      assert.equal(await ask(open), packHash(incumbent));
      await handed.switchPack(successor);
      assert.equal(await ask(open), packHash(incumbent), 'an open conversation finishes on the old policy');
      assert.equal(
        await ask('Task six: a new conversation.'),
        packHash(successor),
        'a new conversation goes to the new policy',
      );
      assert.deepEqual(
        handed.router.draining.map((d) => d.packHash),
        [packHash(incumbent)],
      );
      await new Promise((resolve) => setTimeout(resolve, drainSec * 1000 + 1500));
      assert.deepEqual(handed.router.draining, [], 'the old policy is closed at its drain deadline');
      assert.equal(
        await ask(open),
        packHash(successor),
        'past the deadline the conversation continues on the new policy',
      );
      await handed.shadow!.settle();
      const summary = handed.shadow!.summary();
      assert.equal(summary.shadowPack, packHash(challenger));
      assert.equal(summary.shadow.requests, 4, 'every live request of a sampled conversation is mirrored');
      assert.equal(summary.shadow.failed, 0);
      assert.ok(summary.shadow.costUsd > 0 && summary.live.costUsd > 0, 'both sides are metered');
    } finally {
      await handed.close();
    }
    const recorded = JSON.parse(await readFile(serveShadowSummaryFile(handed.runId), 'utf8')) as {
      shadow: { requests: number };
    };
    assert.equal(recorded.shadow.requests, 4);
    const mirrored = (await readFile(serveShadowLogFile(handed.runId), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { pack: string; live: { costUsd: number } });
    assert.equal(mirrored.length, 4);
    assert.ok(mirrored.every((entry) => entry.pack === packHash(challenger) && entry.live.costUsd > 0));
  });

  test('Hermes pointed at trl serve works a task through it', async () => {
    // Hermes in the sandbox base image on the project's own internal network; the server binds
    // that network's bridge address, the only host address the container can reach.
    const network = await docker.createNetwork({
      Name: `trl-test-serve-hermes-${process.pid}`,
      Internal: true,
      Labels: { [containerLabels.managed]: '1' },
    });
    const bridge = ((await network.inspect()) as { IPAM?: { Config?: { Gateway?: string }[] } }).IPAM?.Config?.[0]
      ?.Gateway as string;
    const hermesServing = await startServing({
      pack: await readPackDirectory(path.join(repoRoot, 'policy', 'examples', 'cost-cascade')),
      docker,
      policyImage,
      upstream: new OpenAI({ baseURL: fleet.url, apiKey: 'x', maxRetries: 0 }),
      settings: {
        host: bridge,
        port: 0,
        maxInstances: 2,
        idleSec: 600,
        instanceCapUsd: 5,
        requestTimeoutSec: 60,
        drainSec: 60,
      },
    });
    let container: Awaited<ReturnType<typeof docker.createContainer>> | undefined;
    try {
      const url = `http://${bridge}:${new URL(hermesServing.server.url).port}/v1`;
      const config = hermesConfig({ endpointUrl: url, maxTurns: 4, workdir: '/tmp/work' });
      container = await docker.createContainer({
        Image: baseImage,
        User: '65534:65534',
        Cmd: [
          'sh',
          '-c',
          `mkdir -p /tmp/hermes-home /tmp/work && printf '%s' "$CONFIG" > /tmp/hermes-home/config.yaml && cd /tmp/work && hermes chat -q "Write the word done into done.txt." -Q --yolo -t terminal,file --max-turns 4 -m auto`,
        ],
        Env: [
          `CONFIG=${config}`,
          'HERMES_HOME=/tmp/hermes-home',
          'HOME=/tmp',
          'PATH=/usr/local/bin:/usr/bin:/bin',
          'LANG=C.UTF-8',
          'TERM=dumb',
          'NO_COLOR=1',
        ],
        Labels: { [containerLabels.managed]: '1', [containerLabels.workerPid]: String(process.pid) },
        HostConfig: { NetworkMode: network.id, Memory: 1024 * 1024 * 1024 },
      });
      await container.start();
      // The deadline timer is cleared either way: a timer left behind would hold this test file open.
      let deadline: NodeJS.Timeout | undefined;
      const exit = await Promise.race([
        container.wait(),
        new Promise<never>((_, reject) => {
          deadline = setTimeout(() => reject(new Error('Hermes ran past 180 s')), 180_000);
        }),
      ]).finally(() => clearTimeout(deadline));
      const output = (await container.logs({ stdout: true, stderr: true })).toString('utf8');
      assert.ok(
        hermesServing.server.requests >= 2,
        `Hermes reached trl serve (${hermesServing.server.requests} requests); exit ${exit.StatusCode}:\n${output.slice(-2000)}`,
      );
      const calls = hermesServing.pool.size;
      assert.equal(calls, 1, 'one conversation, one policy instance');
    } finally {
      await container?.remove({ force: true }).catch(() => undefined);
      await hermesServing.close();
      await network.remove().catch(() => undefined);
    }
  });
});
