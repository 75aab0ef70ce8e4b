// The gateway's upstream client against the sim fleet (whole and streamed answers) and against a
// scripted upstream that fails in every way the gateway tells apart. Each failure is met by this
// client and by the OpenAI SDK's client it replaced: blame, billing, retry and request id must
// come out the same, since every validator must charge and blame the same call the same way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import OpenAI from 'openai';
import { HttpChatUpstream } from './http-chat-upstream.ts';
import type { ChatUpstream } from './chat-upstream.ts';
import { listenOn } from '../http/listen.ts';
import { startSimFleet } from '../../simfleet/sim-fleet-server.ts';
import { fromUpstreamError, isRetriedByGateway, upstreamRequestIdOf, wasRefusedUnbilled } from '../gateway-error.ts';

type Create = (
  body: Record<string, unknown>,
  options?: { signal?: AbortSignal; headers?: Record<string, string> },
) => Promise<unknown> & { withResponse(): Promise<{ data: unknown; request_id: string | null }> };
const createOf = (client: ChatUpstream) =>
  client.chat.completions.create.bind(client.chat.completions) as unknown as Create;
const messages = [{ role: 'user', content: 'Say hello in one short sentence.' }];

test('whole and streamed completions from the sim fleet: the same text, usage, and the extra headers reach the upstream', async (t) => {
  const fleet = await startSimFleet({ timeScale: 0, mode: 'fast' });
  // Generous: the fleet answers at once, but a loaded machine (a full `trl test`) may not run it at once.
  const upstream = new HttpChatUpstream({ baseURL: fleet.url, apiKey: 'sim', timeoutMs: 60_000 });
  t.after(async () => {
    upstream.close();
    await fleet.close();
  });
  const create = createOf(upstream);
  const whole = (await create({ model: 'glm-5.3-flash', messages, max_tokens: 64, seed: 1 }).withResponse())
    .data as OpenAI.Chat.Completions.ChatCompletion;
  assert.ok(whole.choices[0]?.message.content, 'a whole completion has text');
  assert.ok((whole.usage?.prompt_tokens ?? 0) > 0);
  const stream = (await create({
    model: 'glm-5.3-flash',
    messages,
    max_tokens: 64,
    seed: 1,
    stream: true,
    stream_options: { include_usage: true },
  })) as AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>;
  let text = '';
  let usage: unknown;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta.content ?? '';
    if (chunk.usage) usage = chunk.usage;
  }
  assert.equal(text, whole.choices[0]?.message.content, 'the streamed text is the whole answer');
  assert.deepEqual(usage, whole.usage, 'the last chunk carries the same usage');
});

// The scripted upstream: the test's `x-behave` header picks what it does.
const behaviours: Record<string, (request: http.IncomingMessage, response: http.ServerResponse) => void> = {
  'rate limited (429, JSON error, request id)': (_q, r) =>
    void r
      .writeHead(429, { 'content-type': 'application/json', 'x-request-id': 'req-429' })
      .end(JSON.stringify({ error: { message: 'slow down', type: 'rate_limit_error', code: 'rate_limit_exceeded' } })),
  'overloaded (503, text body)': (_q, r) =>
    void r.writeHead(503, { 'content-type': 'text/plain' }).end('overloaded, try later'),
  'failed (500, no body)': (_q, r) => void r.writeHead(500).end(),
  'refused our key (401)': (_q, r) =>
    void r
      .writeHead(401, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { message: 'bad key', type: 'invalid_request_error', code: 'invalid_api_key' } })),
  'out of credit (402)': (_q, r) =>
    void r
      .writeHead(402, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { message: 'insufficient balance' } })),
  'context too long (400, code)': (_q, r) =>
    void r.writeHead(400, { 'content-type': 'application/json', 'x-request-id': 'req-400' }).end(
      JSON.stringify({
        error: { message: 'too many tokens', type: 'invalid_request_error', code: 'context_length_exceeded' },
      }),
    ),
  'bad request (422)': (_q, r) =>
    void r
      .writeHead(422, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { message: 'temperature out of range' } })),
  'a 200 that is not JSON': (_q, r) =>
    void r.writeHead(200, { 'content-type': 'application/json' }).end('<html>gateway error</html>'),
  'hangs up before answering': (q) => q.socket.destroy(),
  'never answers (timeout)': () => undefined,
  'a stream with an error event': (_q, r) => {
    r.writeHead(200, { 'content-type': 'text/event-stream' });
    r.write(
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'Hel' } }] })}\n\n`,
    );
    r.end(`data: ${JSON.stringify({ error: { message: 'the model crashed', type: 'server_error' } })}\n\n`);
  },
  'a stream cut midway': (_q, r) => {
    r.writeHead(200, { 'content-type': 'text/event-stream' });
    r.write(
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'Hel' } }] })}\n\n`,
    );
    setTimeout(() => r.socket?.destroy(), 20);
  },
  'a stream event that is not JSON': (_q, r) => {
    r.writeHead(200, { 'content-type': 'text/event-stream' });
    r.end('data: {"id": "c1", "choices": [\n\n');
  },
};

interface Seen {
  thrown: boolean;
  type?: string;
  status?: number;
  unbilled?: boolean;
  retried?: boolean;
  requestId?: string;
  chunks: number;
}

async function meet(client: ChatUpstream, behaviour: string, streamed: boolean): Promise<Seen> {
  const create = createOf(client);
  let chunks = 0;
  try {
    const answer = await create(
      { model: 'glm-5.3-flash', messages, max_tokens: 16, ...(streamed ? { stream: true } : {}) },
      { headers: { 'x-behave': behaviour } },
    );
    if (streamed) for await (const _chunk of answer as AsyncIterable<unknown>) chunks += 1;
    return { thrown: false, chunks };
  } catch (error) {
    const mapped = fromUpstreamError(error, 'glm-5.3-flash');
    return {
      thrown: true,
      type: mapped.type,
      status: mapped.status,
      unbilled: wasRefusedUnbilled(error),
      retried: isRetriedByGateway(error),
      requestId: upstreamRequestIdOf(error),
      chunks,
    };
  }
}

test('every upstream failure is blamed, billed, retried and identified alike by this client and by the OpenAI SDK', async (t) => {
  const server = http.createServer((request, response) => {
    request.resume();
    const behave = behaviours[String(request.headers['x-behave'])];
    if (!behave) return void response.writeHead(404).end();
    behave(request, response);
  });
  const listening = await listenOn(server, '127.0.0.1');
  // Only the upstream that never answers meets the short deadline; every other behaviour gets one no loaded machine
  // reaches, so a slow turn of the scheduler cannot turn a 503 into a timeout.
  const clientsWith = (timeoutMs: number) => ({
    ours: new HttpChatUpstream({ baseURL: listening.url, apiKey: 'k', timeoutMs }),
    sdk: new OpenAI({
      baseURL: listening.url,
      apiKey: 'k',
      maxRetries: 0,
      timeout: timeoutMs,
    }) as unknown as ChatUpstream,
  });
  const patient = clientsWith(60_000);
  const hasty = clientsWith(300);
  const ours = patient.ours;
  t.after(async () => {
    patient.ours.close();
    hasty.ours.close();
    await listening.close();
  });
  const streamedOnly = new Set([
    'a stream with an error event',
    'a stream cut midway',
    'a stream event that is not JSON',
  ]);
  for (const behaviour of Object.keys(behaviours)) {
    for (const streamed of streamedOnly.has(behaviour) ? [true] : [false, true]) {
      const clients = behaviour === 'never answers (timeout)' ? hasty : patient;
      const [mine, theirs] = [
        await meet(clients.ours, behaviour, streamed),
        await meet(clients.sdk, behaviour, streamed),
      ];
      // A body with no events is an empty stream to both (the gateway settles it without usage, at its reservation).
      const fails = !(behaviour === 'a 200 that is not JSON' && streamed);
      assert.deepEqual(
        [mine.thrown, mine.chunks],
        fails ? [true, mine.chunks] : [false, 0],
        `${behaviour}${streamed ? ' (streamed)' : ''}: ${fails ? 'the call fails' : 'no chunks'}`,
      );
      assert.deepEqual(mine, theirs, `${behaviour}${streamed ? ' (streamed)' : ''}`);
    }
  }
  // The gateway's two judgements that matter most, spelled out.
  const limited = await meet(ours, 'rate limited (429, JSON error, request id)', false);
  assert.deepEqual(
    [limited.type, limited.retried, limited.unbilled, limited.requestId],
    ['rate_limited', true, true, 'req-429'],
  );
  const cut = await meet(ours, 'a stream cut midway', true);
  assert.deepEqual(
    [cut.type, cut.unbilled, cut.chunks],
    ['upstream_error', false, 1],
    'a broken stream is charged at its reservation',
  );
});

test('a refused connection was never sent (unbilled); an abort, before or during the answer, ends as the SDK ends it', async (t) => {
  const closed = await listenOn(http.createServer(), '127.0.0.1');
  const port = closed.port;
  await closed.close();
  const refused = new HttpChatUpstream({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'k', timeoutMs: 5_000 });
  t.after(() => refused.close());
  const seen = await meet(refused, 'any', false);
  assert.deepEqual([seen.type, seen.unbilled], ['upstream_error', true]);

  let held: http.ServerResponse | undefined;
  const server = http.createServer((request, response) => {
    request.resume();
    held = response;
    if (request.headers['x-stream'] === '1') {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(
        `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'Hel' } }] })}\n\n`,
      );
    }
  });
  const listening = await listenOn(server, '127.0.0.1');
  const upstream = new HttpChatUpstream({ baseURL: listening.url, apiKey: 'k', timeoutMs: 5_000 });
  t.after(async () => {
    upstream.close();
    await listening.close();
  });
  const create = createOf(upstream);
  const before = new AbortController();
  before.abort();
  await assert.rejects(create({ model: 'm', messages }, { signal: before.signal }), OpenAI.APIUserAbortError);

  const whole = new AbortController();
  held = undefined;
  const pending = create({ model: 'm', messages }, { signal: whole.signal });
  while (!held) await new Promise((resolve) => setTimeout(resolve, 5));
  whole.abort();
  await assert.rejects(pending, OpenAI.APIUserAbortError);

  const midStream = new AbortController();
  const stream = (await create(
    { model: 'm', messages, stream: true },
    { signal: midStream.signal, headers: { 'x-stream': '1' } },
  )) as AsyncIterable<unknown>;
  let chunks = 0;
  for await (const _chunk of stream) {
    chunks += 1;
    midStream.abort();
  }
  assert.equal(
    chunks,
    1,
    "the stream ended quietly at the abort, as the SDK's does (the gateway then records it as aborted)",
  );
});

test("an answer over the bound fails the call as the upstream's, without reading it all", async (t) => {
  const server = http.createServer((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: 'big',
        choices: [{ index: 0, message: { role: 'assistant', content: 'x'.repeat(200_000) } }],
      }),
    );
  });
  const listening = await listenOn(server, '127.0.0.1');
  const upstream = new HttpChatUpstream({
    baseURL: listening.url,
    apiKey: 'k',
    timeoutMs: 5_000,
    maxAnswerBytes: 64 * 1024,
  });
  t.after(async () => {
    upstream.close();
    await listening.close();
  });
  const seen = await meet(upstream, 'any', false);
  assert.deepEqual([seen.type, seen.unbilled, seen.retried], ['upstream_error', false, false]);
});

// The race of issue 36: the upstream closes a keep-alive socket it considers idle just as the
// gateway writes the next request into it. This server answers the first request on each
// connection and, like a server whose idle timer fired as the bytes arrived, drops the connection
// on the second without reading or answering it.
test('a request on a reused socket the upstream closed is sent again on a fresh connection, and charged once from usage', async (t) => {
  const { ModelGateway } = await import('../model-gateway.ts');
  const { CallLog } = await import('../call-log.ts');
  const { defaultAllowlistFile, loadAllowlist } = await import('../catalog/allowlist.ts');
  let processed = 0;
  let dropped = 0;
  const server = http.createServer((request, response) => {
    const socket = request.socket as typeof request.socket & { served?: number };
    socket.served = (socket.served ?? 0) + 1;
    if (socket.served > 1) {
      dropped += 1;
      return void socket.destroy();
    }
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      processed += 1;
      const body = JSON.parse(text) as { model: string };
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: `answer-${processed}`,
          object: 'chat.completion',
          created: 0,
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
        }),
      );
    });
  });
  const listening = await listenOn(server, '127.0.0.1');
  const upstream = new HttpChatUpstream({ baseURL: `${listening.url}/v1`, apiKey: 'k', timeoutMs: 10_000 });
  const log = new CallLog();
  const gateway = new ModelGateway({
    allowlist: loadAllowlist(defaultAllowlistFile),
    upstream,
    capUsd: 1,
    callLog: log,
    seed: 0,
    retryDelaysMs: [],
  });
  t.after(async () => {
    upstream.close();
    await listening.close();
  });
  // 1: a new pooled socket, answered; 2: reused, dropped, sent again on a connection of its own;
  // 3: a new pooled socket (the dropped one is gone), answered; 4: reused, dropped, sent again.
  for (let call = 0; call < 4; call++) {
    await gateway.complete({ messages, max_tokens: 16 }, { model: 'glm-5.3-flash' });
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.equal(dropped, 2, 'the second and fourth calls first went into a reused socket the upstream dropped');
  assert.equal(upstream.staleRetries, 2);
  assert.equal(processed, 4, 'each call was processed once');
  assert.equal(log.entries.length, 4);
  for (const entry of log.entries) {
    assert.ok(entry.status === 'ok' && entry.basis === 'usage', JSON.stringify(entry));
    assert.equal(entry.costUsd, (10 * 135 + 2 * 450) / 1e9, 'charged its usage, never its reservation');
  }
  assert.equal(gateway.upstreamFailures, 0);
});

test("idle keep-alive sockets are closed by us before a Node upstream's 5 s idle timeout", async (t) => {
  const { idleSocketTimeoutMs } = await import('./http-chat-upstream.ts');
  assert.ok(idleSocketTimeoutMs < 5000);
  const server = http.createServer((_request, response) => response.end('{}'));
  assert.equal(server.keepAliveTimeout, 5000, "Node's default, the sim fleet's");
  const listening = await listenOn(server, '127.0.0.1');
  const upstream = new HttpChatUpstream({ baseURL: `${listening.url}/v1`, apiKey: 'k', timeoutMs: 10_000 });
  t.after(async () => {
    upstream.close();
    await listening.close();
  });
  const agent = (upstream as unknown as { agent: http.Agent & { options: { timeout?: number } } }).agent;
  assert.equal(agent.options.timeout, idleSocketTimeoutMs);
});
