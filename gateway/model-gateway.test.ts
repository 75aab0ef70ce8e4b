// The gateway's meter on hand-worked numbers (gateway/meter/README.md, "Worked example"), with
// the real season-2 prices, through the in-process path the policy host's ctx.call uses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { ModelGateway } from './model-gateway.ts';
import { CallLog, type CallLogEntry } from './call-log.ts';
import { GatewayError } from './gateway-error.ts';
import { defaultAllowlistFile, loadAllowlist } from './catalog/allowlist.ts';
import { HttpChatUpstream } from './upstream/http-chat-upstream.ts';
import { listenOn } from './http/listen.ts';
import { metricNames, metricsRegistry } from '../common/metrics.ts';

const allowlist = loadAllowlist(defaultAllowlistFile);

/** An upstream that records each body and answers with the given usage. */
function recordingUpstream(usage: object | undefined, bodies: Record<string, unknown>[] = []): OpenAI {
  return {
    chat: {
      completions: {
        async create(body: Record<string, unknown>) {
          bodies.push(body);
          return {
            id: 'chatcmpl-1',
            object: 'chat.completion',
            created: 0,
            model: body.model,
            choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
            usage,
          };
        },
      },
    },
  } as unknown as OpenAI;
}

function gatewayWith(upstream: OpenAI, capUsd: number): { gateway: ModelGateway; log: CallLog } {
  const log = new CallLog();
  return { gateway: new ModelGateway({ allowlist, upstream, capUsd, callLog: log, seed: 7, retryDelaysMs: [] }), log };
}

const hiThere = { model: 'glm-5.3', max_tokens: null, messages: [{ role: 'user', content: 'Hi there' }] };

function ended(entry: CallLogEntry | undefined) {
  assert.ok(entry && entry.status !== 'refused', JSON.stringify(entry));
  return entry;
}

test('the worked example: estimate 53, bound 599, reservation $0.02581838, settled at $0.0003276', async () => {
  const bodies: Record<string, unknown>[] = [];
  const { gateway, log } = gatewayWith(recordingUpstream({ prompt_tokens: 20, completion_tokens: 100 }, bodies), 1);
  const rows: unknown[] = [];
  const started = log.started.bind(log);
  log.started = (row) => {
    rows.push(row);
    started(row);
  };
  await gateway.complete(hiThere, { model: 'glm-5.3' });
  // Billed JSON {"messages":[{"role":"user","content":"Hi there"}]}: plain 31, other 20 → estimate ⌊37.92⌋ + 16;
  // bound 51 bytes + 4 separators + 32 (one message) + 512 (the request) = 599 tokens, reserved at 599 × 980 n$.
  assert.deepEqual(rows[0], {
    callId: (rows[0] as { callId: string }).callId,
    requestId: undefined,
    branch: undefined,
    model: 'glm-5.3',
    streamed: false,
    promptEstimateTokens: 53,
    promptBoundTokens: 599,
    answerCount: 1,
    maxTokens: 8192,
    clamped: false,
    reservedUsd: 0.02581838,
    request: hiThere,
  });
  // 20 × 980 n$ + 100 × 3,080 n$.
  const call = ended(log.entries[0]);
  assert.equal(call.costUsd, 0.0003276);
  assert.equal(call.basis, 'usage');
  assert.equal(call.upstreamRequestId, 'chatcmpl-1');
  assert.deepEqual(gateway.budget(), { cap_usd: 1, spent_usd: 0.000328, reserved_usd: 0, remaining_usd: 0.999672 });
  assert.equal(bodies[0]!.max_tokens, 8192, "the meter's length goes upstream as max_tokens");
  assert.equal(bodies[0]!.seed, 7);
});

test('cached prompt tokens are charged at the cache-read price', async () => {
  const { gateway, log } = gatewayWith(
    recordingUpstream({ prompt_tokens: 1000, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 800 } }),
    1,
  );
  await gateway.complete(hiThere, { model: 'glm-5.3' });
  // 200 × 980 + 800 × 180 + 10 × 3,080 = 196,000 + 144,000 + 30,800 n$.
  assert.equal(ended(log.entries[0]).costUsd, 0.0003708);
});

test('the clamp: kimi-k3 under the live $0.30 cap, a 24,470-token bound asking 50,000 gets 25,875, clamped', async () => {
  // {"messages":[{"role":"user","content":"xxx…"}]}: 23,922 bytes + 4 separators + 32 + 512 = 24,470 tokens
  // (the live estimate would be ⌊5 × 23,962 / 12⌋ + 16 = 10,000).
  const body = { messages: [{ role: 'user', content: 'x'.repeat(23_879) }], max_tokens: 50_000 };
  const bodies: Record<string, unknown>[] = [];
  const { gateway, log } = gatewayWith(recordingUpstream({ prompt_tokens: 3000, completion_tokens: 10 }, bodies), 0.3);
  await gateway.complete(body, { model: 'kimi-k3' });
  const call = ended(log.entries[0]);
  // ($0.30 − 24,470 × $0.00000195) / $0.00000975 = 25,875.2.
  assert.equal(call.maxTokens, 25_875);
  assert.equal(call.clamped, true);
  assert.equal(call.reservedUsd, (24_470 * 1950 + 25_875 * 9750) / 1e9);
  assert.equal(bodies[0]!.max_tokens, 25_875);
});

test('n answers are reserved and clamped per answer', async () => {
  const { gateway, log } = gatewayWith(recordingUpstream({ prompt_tokens: 20, completion_tokens: 300 }), 0.01);
  await gateway.complete({ ...hiThere, n: 3, max_tokens: 5000 }, { model: 'glm-5.3' });
  // ($0.01 − 599 × 980 n$) / (3 × 3,080 n$) = 1,018.7 tokens per answer.
  const call = ended(log.entries[0]);
  assert.equal(call.maxTokens, 1018);
  assert.equal(call.clamped, true);
  assert.equal(call.reservedUsd, (599 * 980 + 1018 * 3 * 3080) / 1e9);
});

test('402 cap when fewer than 64 tokens fit; 64 fit one micro-dollar later', async () => {
  // Prompt 599 × 980 = 587,020 n$. A $0.000784 cap leaves 196,980 n$ = 63.95 tokens at 3,080 n$.
  const refusedLog = gatewayWith(recordingUpstream({ prompt_tokens: 1, completion_tokens: 1 }), 0.000784);
  await assert.rejects(
    refusedLog.gateway.complete(hiThere, { model: 'glm-5.3' }),
    (e: unknown) =>
      e instanceof GatewayError && e.status === 402 && e.type === 'cap' && /63 completion tokens/.test(e.message),
  );
  const refused = refusedLog.log.entries[0]!;
  assert.equal(refused.status, 'refused');
  assert.equal('request' in refused, false, 'a refused call is logged without its body');
  assert.equal(refusedLog.gateway.budgetRefusals, 1);
  // $0.000785 leaves 197,980 n$ = 64.3 tokens: sent, clamped to 64.
  const fits = gatewayWith(recordingUpstream({ prompt_tokens: 1, completion_tokens: 1 }), 0.000785);
  await fits.gateway.complete(hiThere, { model: 'glm-5.3' });
  assert.equal(ended(fits.log.entries[0]).maxTokens, 64);
});

test('no usage on a 200 is charged the whole reservation', async () => {
  const { gateway, log } = gatewayWith(recordingUpstream(undefined), 1);
  await gateway.complete({ ...hiThere, max_tokens: 1000 }, { model: 'glm-5.3' });
  const call = ended(log.entries[0]);
  assert.equal(call.basis, 'missing-usage');
  assert.equal(call.costUsd, (599 * 980 + 1000 * 3080) / 1e9);
});

test("calls that fail upstream for the infrastructure's reasons are counted; the policy still gets the typed error", async () => {
  const statuses = [503, 401, 400];
  const upstream = {
    chat: {
      completions: {
        async create() {
          const status = statuses.shift()!;
          throw OpenAI.APIError.generate(status, { error: { message: `status ${status}` } }, undefined, new Headers());
        },
      },
    },
  } as unknown as OpenAI;
  const { gateway } = gatewayWith(upstream, 1);
  const hello = { messages: [{ role: 'user', content: 'hi' }] };
  await assert.rejects(
    gateway.complete(hello, { model: 'glm-5.3' }),
    (e: unknown) => e instanceof GatewayError && e.type === 'upstream_error',
  );
  await assert.rejects(
    gateway.complete(hello, { model: 'glm-5.3' }),
    (e: unknown) => e instanceof GatewayError && e.type === 'upstream_unavailable',
  );
  assert.equal(gateway.upstreamFailures, 2);
  // A request the upstream calls bad is the policy's: not counted.
  await assert.rejects(
    gateway.complete(hello, { model: 'glm-5.3' }),
    (e: unknown) => e instanceof GatewayError && e.type === 'invalid_request',
  );
  assert.equal(gateway.upstreamFailures, 2);
});

test('the billed part is serialized once: the upstream gets, and the call log keeps, what serializing each whole would give', async (t) => {
  // Everything the split touches: knobs kept, dropped and overridden; a `__proto__` key (an
  // ordinary field after JSON.parse); non-ASCII, an astral character, tools, a null.
  const body = JSON.parse(
    JSON.stringify({
      model: 'glm-5.3',
      messages: [{ role: 'user', content: 'Héllo 世界 🙂 "quoted" \\ {x}' }],
      tools: [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object' } } }],
      temperature: 0.2,
      top_p: null,
      stop: ['END'],
      user: 'u-1',
      tool_choice: 'auto',
      n: 1,
      seed: 99,
      max_completion_tokens: 300,
      stream_options: { include_usage: false },
      response_format: { type: 'text' },
    }).replace('{"model"', '{"__proto__":{"polluted":true},"model"'),
  ) as Record<string, unknown>;
  assert.ok(Object.hasOwn(body, '__proto__'));
  const received: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      received.push(text);
      const usage = { prompt_tokens: 40, completion_tokens: 2 };
      if ((JSON.parse(text) as { stream?: boolean }).stream) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(
          `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'glm-5.3', choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }] })}\n\n`,
        );
        response.end(
          `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'glm-5.3', choices: [], usage })}\n\ndata: [DONE]\n\n`,
        );
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          created: 0,
          model: 'glm-5.3',
          choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
          usage,
        }),
      );
    });
  });
  const listening = await listenOn(server, '127.0.0.1');
  const upstream = new HttpChatUpstream({ baseURL: listening.url, apiKey: 'k', timeoutMs: 5_000 });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-gateway-split-'));
  t.after(async () => {
    upstream.close();
    await listening.close();
    await rm(dir, { recursive: true, force: true });
  });
  const log = new CallLog(path.join(dir, 'calls.jsonl'));
  const gateway = new ModelGateway({
    allowlist,
    upstream: upstream as unknown as OpenAI,
    capUsd: 1,
    callLog: log,
    seed: 7,
    retryDelaysMs: [],
  });
  await gateway.complete(body, { model: 'glm-5.3' });
  for await (const _chunk of gateway.stream(body, { model: 'glm-5.3' })) {
    /* read to the end */
  }
  await log.close();

  // What the gateway built before, serialized whole: the body without the length and stream knobs,
  // then model, the meter's max_tokens and the validator's seed, then this call's stream fields.
  const { max_completion_tokens: _length, stream: _stream, stream_options: _streamOptions, ...rest } = body;
  const sentBefore = (extra: object) =>
    JSON.parse(JSON.stringify({ ...rest, model: 'glm-5.3', max_tokens: 300, seed: 7, ...extra })) as unknown;
  assert.equal(received.length, 2);
  assert.deepEqual(JSON.parse(received[0]!), sentBefore({ stream: false }));
  assert.deepEqual(JSON.parse(received[1]!), sentBefore({ stream: true, stream_options: { include_usage: true } }));
  const starts = (await readFile(log.file!, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { phase: string; request?: unknown; maxTokens?: number })
    .filter((row) => row.phase === 'start');
  assert.equal(starts.length, 2);
  for (const row of starts) {
    assert.deepEqual(row.request, JSON.parse(JSON.stringify(body)));
    assert.equal(row.maxTokens, 300);
  }
  assert.equal(log.entries.filter((entry) => entry.status === 'ok').length, 2);
});

test("a rehearsal's calls (recordMetrics false: the probe) stay out of the model-call and spend metrics", async () => {
  const spendOf = async () => {
    const metric = (await metricsRegistry.getMetricsAsJSON()).find((m) => m.name === metricNames.spend);
    return (metric?.values ?? []).reduce((sum, v) => sum + v.value, 0);
  };
  const before = await spendOf();
  const rehearsal = new ModelGateway({
    allowlist,
    upstream: recordingUpstream({ prompt_tokens: 1000, completion_tokens: 1000 }),
    capUsd: 1,
    callLog: new CallLog(undefined),
    seed: 0,
    recordMetrics: false,
  });
  await rehearsal.complete(hiThere, { model: 'glm-5.3' });
  assert.ok(rehearsal.ledger.spentUsd > 0, 'the rehearsal is still metered against its own cap');
  assert.equal(await spendOf(), before);
  const { gateway } = gatewayWith(recordingUpstream({ prompt_tokens: 1000, completion_tokens: 1000 }), 1);
  await gateway.complete(hiThere, { model: 'glm-5.3' });
  assert.ok((await spendOf()) > before, 'a real call is counted');
});
