import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { reassembleChunks } from './chunk-reassembly.ts';
import { modelSolves } from './agent-behaviour.ts';
import { startSimFleet } from './sim-fleet-server.ts';
import type { ChatCompletion } from './simulate-completion.ts';
import type { ChatCompletionChunk } from './sse.ts';
import { afterToolCall, agentStart, hermesTools, scenario, withoutFaults } from './testing/fixtures.ts';
import type { ChatMessage } from './request-schema.ts';

const fleet = await startSimFleet({ port: 0, timeScale: 0, allowlist: withoutFaults(), mode: 'fast' });
after(() => fleet.close());

async function post(body: unknown, base = fleet.url): Promise<Response> {
  return fetch(`${base}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

function parseSse(text: string): { chunks: ChatCompletionChunk[]; done: boolean } {
  const events = text.split('\n\n').filter(Boolean);
  assert.ok(
    events.every((e) => e.startsWith('data: ')),
    'every event is a data line',
  );
  const done = events[events.length - 1] === 'data: [DONE]';
  return {
    chunks: events.filter((e) => e !== 'data: [DONE]').map((e) => JSON.parse(e.slice(6)) as ChatCompletionChunk),
    done,
  };
}

test('the url is on loopback and /v1/models lists the eight simulated models', async () => {
  assert.match(fleet.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  const response = await fetch(`${fleet.url}/models`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('x-trl-simulator'), 'trl-sim-fleet');
  const list = (await response.json()) as {
    object: string;
    data: { id: string; object: string; created: number; owned_by: string }[];
  };
  assert.equal(list.object, 'list');
  assert.equal(list.data.length, 8);
  assert.deepEqual(list.data[0], {
    id: 'deepseek-v4-flash-0731',
    object: 'model',
    created: 0,
    owned_by: 'trl-sim-fleet (simulated)',
  });
  const one = await fetch(`${fleet.url}/models/glm-5.2`);
  assert.equal(((await one.json()) as { id: string }).id, 'glm-5.2');
});

test('streamed answers reassemble to the non-streamed ones, usage last, then [DONE]', async () => {
  const bodies = [
    { model: 'glm-5.2', messages: agentStart(scenario('fix-inventory-bug')), tools: hermesTools, seed: 1 },
    { model: 'qwen3.6-35b-a3b', messages: agentStart(scenario('csv-sales-report')), tools: hermesTools, seed: 4 },
    { model: 'deepseek-v4-flash-0731', messages: [{ role: 'user', content: 'Say hello.' }] },
  ];
  let sawToolCall = false;
  for (const body of bodies) {
    const plain = (await (await post(body)).json()) as ChatCompletion;
    const response = await post({ ...body, stream: true, stream_options: { include_usage: true } });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.equal(response.headers.get('x-trl-simulator'), 'trl-sim-fleet');
    const { chunks, done } = parseSse(await response.text());
    assert.ok(done);
    assert.ok(
      chunks.every(
        (c) => c.id === plain.id && c.object === 'chat.completion.chunk' && c.system_fingerprint === 'trl-sim-fleet',
      ),
    );
    const folded = reassembleChunks(chunks);
    const message = plain.choices[0].message;
    assert.equal(folded.content ?? '', message.content ?? '');
    assert.deepEqual(folded.toolCalls, message.tool_calls ?? []);
    assert.equal(folded.finishReason, plain.choices[0].finish_reason);
    assert.deepEqual(chunks[chunks.length - 1]!.usage, plain.usage);
    assert.deepEqual(chunks[chunks.length - 1]!.choices, []);
    if (message.tool_calls) sawToolCall = true;
  }
  assert.ok(sawToolCall);
  const { chunks } = parseSse(await (await post({ ...bodies[2], stream: true })).text());
  assert.ok(
    chunks.every((c) => !c.usage),
    'no usage chunk unless asked',
  );
});

test('an agent loop over HTTP: one tool call, then a final answer', async () => {
  for (const target of ['csv-sales-report', 'fix-inventory-bug', 'sqlite-orders-analytics']) {
    for (const modelId of ['glm-5.2', 'qwen3.6-35b-a3b']) {
      const messages: ChatMessage[] = agentStart(scenario(target));
      let turns = 0;
      let finish: string | undefined;
      while (turns < 5) {
        turns++;
        const completion = (await (
          await post({ model: modelId, messages, tools: hermesTools, seed: 11 })
        ).json()) as ChatCompletion;
        const choice = completion.choices[0];
        finish = choice.finish_reason;
        if (finish !== 'tool_calls') {
          assert.match(choice.message.content ?? '', /^(The task is complete|I could not verify)/);
          break;
        }
        const call = choice.message.tool_calls![0]!;
        messages.push(...afterToolCall([], call));
      }
      assert.equal(finish, 'stop');
      assert.equal(turns, 2, `${modelId} on ${target}`);
    }
  }
});

test('equal requests get byte-identical bodies over HTTP', async () => {
  const body = {
    model: 'qwen3.8-27b',
    messages: agentStart(scenario('sqlite-orders-analytics')),
    tools: hermesTools,
    seed: 9,
  };
  const first = await (await post(body)).text();
  assert.equal(await (await post(body)).text(), first);
});

test('errors are OpenAI-shaped with the right status', async () => {
  const cases: [unknown, number, string | null, string | null][] = [
    [{ model: 'nope', messages: [{ role: 'user', content: 'x' }] }, 404, 'model_not_found', 'model'],
    [
      { model: 'glm-5.2', messages: [{ role: 'user', content: 'x' }], temperature: 9 },
      400,
      'invalid_value',
      'temperature',
    ],
    ['{not json', 400, 'invalid_json', null],
  ];
  for (const [body, status, code, param] of cases) {
    const response = await post(body);
    assert.equal(response.status, status);
    assert.equal(response.headers.get('x-trl-simulator'), 'trl-sim-fleet');
    const { error } = (await response.json()) as {
      error: { type: string; code: string | null; param: string | null; message: string };
    };
    assert.deepEqual([error.code, error.param], [code, param]);
    assert.equal(error.type, 'invalid_request_error');
  }
  const unknown = await fetch(`${fleet.url}/embeddings`, { method: 'POST', body: '{}' });
  assert.equal(unknown.status, 404);
  assert.equal((await fetch(`${fleet.url}/chat/completions`)).status, 405);
});

test('delays follow the profile times the time scale, and streaming spreads the chunks', async () => {
  const slow = await startSimFleet({ timeScale: 0.02, allowlist: withoutFaults(), mode: 'fast' });
  try {
    const body = { model: 'glm-5.2', messages: agentStart(scenario('csv-sales-report')), tools: hermesTools, seed: 2 };
    const started = performance.now();
    const completion = (await (await post(body, slow.url)).json()) as ChatCompletion;
    const elapsed = performance.now() - started;
    const expected = (600 + (completion.usage.completion_tokens / 60) * 1000) * 0.02;
    assert.ok(elapsed >= expected - 5, `took ${elapsed} ms, expected at least ${expected}`);
    // Arrivals are timed from the request itself: whether the headers come before the first token
    // or with it, the first token cannot arrive before the latency.
    const streamStart = performance.now();
    const response = await post({ ...body, stream: true }, slow.url);
    const reader = response.body!.getReader();
    const arrivals: number[] = [];
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
      arrivals.push(performance.now() - streamStart);
    }
    assert.ok(arrivals.length > 2);
    assert.ok(arrivals[0]! >= 600 * 0.02 - 5, 'first token after the latency');
    assert.ok(arrivals[arrivals.length - 1]! - arrivals[0]! > expected * 0.3, 'chunks spread over the generation time');
  } finally {
    await slow.close();
  }
});

test('closing the fleet ends pending requests at once, and only loopback is allowed', async () => {
  const slow = await startSimFleet({ timeScale: 100, allowlist: withoutFaults(), mode: 'fast' });
  const pending = post({ model: 'glm-5.2', messages: [{ role: 'user', content: 'x' }] }, slow.url).catch(
    (error: unknown) => error,
  );
  await new Promise((resolve) => setTimeout(resolve, 50));
  // Had close waited for the slow answer, the request would have succeeded instead of being cut off.
  await slow.close();
  assert.ok((await pending) instanceof Error, 'the pending request was cut off');
  await assert.rejects(startSimFleet({ host: '0.0.0.0' as '127.0.0.1', mode: 'fast' }), /127\.0\.0\.1 only/);
});

test('a drifting model answers worse as the fleet answers more of its calls; the others do not move', async () => {
  const steady = withoutFaults();
  const target = scenario('csv-sales-report');
  const glm = steady.models.find((m) => m.id === 'glm-5.2')!;
  // Solved at full competence, not at half of it.
  const seed = Array.from({ length: 1000 }, (_, s) => s).find(
    (s) => modelSolves(s, glm, target) && !modelSolves(s, glm, target, 0.5),
  )!;
  const drifting = {
    ...steady,
    models: steady.models.map((m) =>
      m.id === 'glm-5.2' ? { ...m, sim: { ...m.sim, drift: { competenceLossPerCall: 0.25, floor: 0 } } } : m,
    ),
  };
  const driftingFleet = await startSimFleet({ port: 0, timeScale: 0, allowlist: drifting, mode: 'fast' });
  try {
    const command = async (base: string, model: string) => {
      const completion = (await (
        await post({ model, messages: agentStart(target), tools: hermesTools, seed }, base)
      ).json()) as ChatCompletion;
      return completion.choices[0].message.tool_calls![0]!.function.arguments;
    };
    const answers = [];
    for (let call = 0; call < 3; call++) answers.push(await command(driftingFleet.url, 'glm-5.2'));
    // Calls 0 and 1 at 100% and 75% of the competence, call 2 at 50%: below what this seed needs.
    assert.equal(answers[0], await command(fleet.url, 'glm-5.2'));
    assert.notEqual(answers[2], answers[0]);
    const other = await command(driftingFleet.url, 'kimi-k3');
    assert.equal(other, await command(fleet.url, 'kimi-k3'));
  } finally {
    await driftingFleet.close();
  }
});

test('realistic mode over HTTP: text with each tool call, a long trajectory, then a final answer', async () => {
  const realistic = await startSimFleet({ port: 0, timeScale: 0, allowlist: withoutFaults(), mode: 'realistic' });
  try {
    const messages: ChatMessage[] = agentStart(scenario('csv-sales-report'));
    let turns = 0;
    let finish: string | undefined;
    let lastPrompt = 0;
    while (turns < 45) {
      turns++;
      const response = await fetch(`${realistic.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'glm-5.3-flash', messages, tools: hermesTools, seed: 3 }),
      });
      const completion = (await response.json()) as ChatCompletion;
      assert.ok(completion.usage.prompt_tokens > lastPrompt, 'the prompt grows turn by turn');
      lastPrompt = completion.usage.prompt_tokens;
      const choice = completion.choices[0];
      finish = choice.finish_reason;
      if (finish !== 'tool_calls') break;
      assert.ok((choice.message.content ?? '').length > 100, 'each tool call comes with visible text');
      const call = choice.message.tool_calls![0]!;
      messages.push(...afterToolCall([], call, 'output\n'.repeat(20)));
    }
    assert.equal(finish, 'stop');
    assert.ok(turns >= 10 && turns <= 40, `${turns} turns`);
  } finally {
    await realistic.close();
  }
});
