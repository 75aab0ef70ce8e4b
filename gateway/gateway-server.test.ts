// The HTTP face over real sockets, against a small scripted upstream: the budget endpoint and
// header under parallel streamed calls, 429/503 retried away, rows of calls in flight, tokens.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { ModelGateway } from './model-gateway.ts';
import { CallLog } from './call-log.ts';
import { EpisodeTokens, budgetHeader, serveGateway, type GatewayServer } from './gateway-server.ts';
import { defaultAllowlistFile, loadAllowlist } from './catalog/allowlist.ts';
import { listenOn, type Listening } from './http/listen.ts';
import { readCallLogCost } from './spend/call-log-cost.ts';

const allowlist = loadAllowlist(defaultAllowlistFile);
const usage = { prompt_tokens: 20, completion_tokens: 100, total_tokens: 120 };

/** What the scripted upstream does with the next request. */
type Step = { status: number; requestId?: string } | { hold: Promise<void> };

class StubUpstream {
  readonly steps: Step[] = [];
  readonly bodies: Record<string, unknown>[] = [];
  listening!: Listening;

  async start(): Promise<void> {
    const server = http.createServer(async (request, response) => {
      let text = '';
      for await (const chunk of request) text += chunk;
      const body = JSON.parse(text) as Record<string, unknown>;
      this.bodies.push(body);
      const step = this.steps.shift() ?? { status: 200 };
      if ('status' in step && step.status !== 200) {
        response.writeHead(step.status, { 'content-type': 'application/json' });
        return response.end(JSON.stringify({ error: { message: `scripted ${step.status}`, type: 'x', code: null } }));
      }
      const headers = {
        'x-request-id': 'requestId' in step && step.requestId ? step.requestId : `up-${this.bodies.length}`,
      };
      const id = `chatcmpl-${this.bodies.length}`;
      if (!body.stream) {
        response.writeHead(200, { ...headers, 'content-type': 'application/json' });
        return response.end(
          JSON.stringify({
            id,
            object: 'chat.completion',
            created: 0,
            model: body.model,
            choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
            usage,
          }),
        );
      }
      response.writeHead(200, { ...headers, 'content-type': 'text/event-stream' });
      const chunk = (extra: object) =>
        response.write(
          `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model: body.model, ...extra })}\n\n`,
        );
      chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: 'h' }, finish_reason: null }] });
      if ('hold' in step) await step.hold;
      if (response.destroyed) return;
      chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
      if ((body.stream_options as { include_usage?: boolean } | undefined)?.include_usage)
        chunk({ choices: [], usage });
      response.end('data: [DONE]\n\n');
    });
    this.listening = await listenOn(server, '127.0.0.1');
  }
}

let stub: StubUpstream;
let dir: string;
before(async () => {
  stub = new StubUpstream();
  await stub.start();
  dir = await mkdtemp(path.join(os.tmpdir(), 'trl-gateway-'));
});
after(async () => stub.listening.close());

async function episode(
  name: string,
  capUsd = 1,
): Promise<{ gateway: ModelGateway; log: CallLog; server: GatewayServer; client: OpenAI; file: string }> {
  const file = path.join(dir, name, 'model-calls.jsonl');
  const log = new CallLog(file);
  const upstream = new OpenAI({ baseURL: stub.listening.url, apiKey: 'upstream-key', maxRetries: 0 });
  const gateway = new ModelGateway({
    allowlist,
    upstream,
    capUsd,
    callLog: log,
    seed: 1,
    retryDelaysMs: [1, 2, 4, 8, 16, 32],
  });
  const server = await serveGateway(gateway, { host: '127.0.0.1', token: `token-${name}` });
  return {
    gateway,
    log,
    server,
    client: new OpenAI({ baseURL: server.url, apiKey: `token-${name}`, maxRetries: 0 }),
    file,
  };
}

const hiThere = (maxTokens: number) => ({
  model: 'glm-5.3',
  max_tokens: maxTokens,
  messages: [{ role: 'user' as const, content: 'Hi there' }],
});

async function getJson(
  server: GatewayServer,
  pathname: string,
  token: string,
): Promise<{ status: number; body: unknown; header: string | null }> {
  const response = await fetch(`${server.url}${pathname}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: await response.json(), header: response.headers.get(budgetHeader) };
}

async function rows(file: string): Promise<{ phase: string; callId: string; [key: string]: unknown }[]> {
  const text = await readFile(file, 'utf8');
  return text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

async function until(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail(`timed out waiting for ${what}`);
}

test('/v1/budget shows three parallel streamed calls held, then settled, and every answer carries the header', async () => {
  const { log, server, client } = await episode('parallel');
  try {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    stub.steps.push({ hold }, { hold }, { hold });
    const streams = await Promise.all(
      [0, 1, 2].map(() => client.chat.completions.create({ ...hiThere(1000), stream: true }).withResponse()),
    );
    for (const { response } of streams) assert.match(response.headers.get(budgetHeader) ?? '', /^0\.\d{6}$/);
    // Each holds its bound 599 × 980 + 1,000 × 3,080 = 3,667,020 n$; three hold $0.01100106.
    const held = await getJson(server, '/budget', 'token-parallel');
    assert.equal(held.status, 200);
    assert.deepEqual(held.body, { cap_usd: 1, spent_usd: 0, reserved_usd: 0.011001, remaining_usd: 0.988999 });
    assert.equal(held.header, '0.988999');
    release();
    for (const { data } of streams) {
      let sawUsage = false;
      for await (const chunk of data) sawUsage ||= chunk.usage !== undefined && chunk.usage !== null;
      assert.ok(sawUsage, 'usage is always requested upstream and relayed');
    }
    await until(() => log.entries.length === 3, 'three settled calls');
    // Each costs 20 × 980 + 100 × 3,080 = 327,600 n$.
    const settled = await getJson(server, '/budget', 'token-parallel');
    assert.deepEqual(settled.body, { cap_usd: 1, spent_usd: 0.000983, reserved_usd: 0, remaining_usd: 0.999017 });
    const models = await getJson(server, '/models', 'token-parallel');
    assert.equal(models.header, '0.999017');
    assert.equal((models.body as { data: unknown[] }).data.length, 8);
    for (const body of stub.bodies.slice(-3)) assert.deepEqual(body.stream_options, { include_usage: true });
  } finally {
    await server.close();
  }
});

test('upstream 429 and 503 are retried by the gateway; the policy sees the 200 and the row keeps the request id', async () => {
  const { log, server, client } = await episode('retries');
  try {
    stub.steps.push({ status: 429 }, { status: 503 }, { status: 429 }, { status: 200, requestId: 'upstream-req-42' });
    const { data, response } = await client.chat.completions.create(hiThere(100)).withResponse();
    assert.equal(data.choices[0]?.message.content, 'hi');
    assert.match(response.headers.get(budgetHeader) ?? '', /^0\.\d{6}$/);
    const call = log.entries[0]!;
    assert.ok(
      call.status === 'ok' && call.attempts === 4 && call.upstreamRequestId === 'upstream-req-42',
      JSON.stringify(call),
    );
    // Seven 503s in a row: six retries, then the policy gets the error; not billed, so released.
    stub.steps.push(...Array.from({ length: 7 }, () => ({ status: 503 })));
    await assert.rejects(client.chat.completions.create(hiThere(100)), /502/);
    const failed = log.entries[1]!;
    assert.ok(
      failed.status === 'error' && failed.attempts === 7 && failed.basis === 'failed-after-send',
      JSON.stringify(failed),
    );
  } finally {
    await server.close();
  }
});

test('a call in flight has its start row on disk; the policy abandoning it ends it `abandoned`, charged at its reservation', async () => {
  const { gateway, log, server, client, file } = await episode('abort');
  try {
    let release!: () => void;
    stub.steps.push({ hold: new Promise<void>((resolve) => (release = resolve)) });
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { ...hiThere(1000), stream: true },
      { signal: controller.signal },
    );
    const reader = stream[Symbol.asyncIterator]();
    await reader.next();
    // Written when the call started: a SIGKILL now would leave this row, and the spend ledger
    // would count its reservation.
    await until(async () => (await rows(file)).some((row) => row.phase === 'start'), 'the start row');
    const inFlight = await rows(file);
    assert.deepEqual(
      inFlight.map((row) => row.phase),
      ['start'],
    );
    assert.equal(inFlight[0]!.reservedUsd, 0.00366702);
    assert.ok(inFlight[0]!.request, 'the start row carries the request');
    assert.equal((await readCallLogCost(file))?.costUsd, 0.00366702);
    controller.abort();
    await until(() => log.entries.length === 1, 'the aborted call to end');
    release();
    const call = log.entries[0]!;
    assert.ok(
      call.status === 'error' &&
        call.errorType === 'abandoned' &&
        call.basis === 'failed-after-send' &&
        call.costUsd === 0.00366702,
      JSON.stringify(call),
    );
    assert.equal(gateway.budget().spent_usd, 0.003667);
    await until(async () => (await rows(file)).length === 2, 'the end row on disk');
    assert.equal((await readCallLogCost(file))?.unfinishedCalls, 0);
  } finally {
    await server.close();
  }
});

test('unknown model → 400 naming the allowlist; unknown or closed token → 401; refusals logged without bodies', async () => {
  const { log, server, client, file } = await episode('tokens', 0.000249);
  try {
    await assert.rejects(
      client.chat.completions.create({ ...hiThere(100), model: 'gpt-unlisted' }),
      (e: unknown) => e instanceof OpenAI.APIError && e.status === 400 && /allowlist: .*kimi-k3/.test(e.message),
    );
    const refused = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer token-tokens', 'content-type': 'application/json' },
      body: JSON.stringify(hiThere(100)),
    });
    assert.equal(refused.status, 402);
    assert.equal(((await refused.json()) as { error: { type: string } }).error.type, 'cap');
    assert.equal(refused.headers.get(budgetHeader), '0.000249');
    assert.equal(log.entries.length, 2);
    await log.close();
    for (const row of await rows(file))
      assert.ok(row.phase === 'refused' && !('request' in row) && !('response' in row), JSON.stringify(row));
    assert.equal((await getJson(server, '/budget', 'wrong-token')).status, 401);
    server.episodes.close('token-tokens');
    assert.equal((await getJson(server, '/budget', 'token-tokens')).status, 401);
  } finally {
    await server.close();
  }
});

test('one server answers for several episodes, each on its own meter', async () => {
  const episodes = new EpisodeTokens();
  const upstream = new OpenAI({ baseURL: stub.listening.url, apiKey: 'k', maxRetries: 0 });
  const first = new ModelGateway({ allowlist, upstream, capUsd: 1, callLog: new CallLog(), seed: 1 });
  const second = new ModelGateway({ allowlist, upstream, capUsd: 0.3, callLog: new CallLog(), seed: 1 });
  episodes.add('episode-one', first);
  episodes.add('episode-two', second);
  const server = await serveGateway(episodes, { host: '127.0.0.1' });
  try {
    await new OpenAI({ baseURL: server.url, apiKey: 'episode-one', maxRetries: 0 }).chat.completions.create(
      hiThere(100),
    );
    assert.equal(((await getJson(server, '/budget', 'episode-one')).body as { spent_usd: number }).spent_usd, 0.000328);
    assert.deepEqual((await getJson(server, '/budget', 'episode-two')).body, {
      cap_usd: 0.3,
      spent_usd: 0,
      reserved_usd: 0,
      remaining_usd: 0.3,
    });
  } finally {
    await server.close();
  }
});
