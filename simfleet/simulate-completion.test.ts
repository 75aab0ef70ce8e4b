import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { simulateChatCompletion, type FleetContext, type SimulatedCompletion } from './simulate-completion.ts';
import { countPromptTokens, countTokens } from './token-count.ts';
import {
  afterToolCall,
  agentStart,
  allowlist,
  hermesTools,
  scenario,
  scenarios,
  withoutFaults,
} from './testing/fixtures.ts';

const context: FleetContext = { allowlist: withoutFaults(), scenarios };
const realRates: FleetContext = { allowlist, scenarios };

function ok(body: unknown, fleet = context): SimulatedCompletion {
  const result = simulateChatCompletion(body, fleet);
  if (!result.ok) assert.fail(`unexpected error: ${result.error.message}`);
  return result.value;
}

function agentBody(modelId: string, scenarioName: string, seed: number) {
  return { model: modelId, messages: agentStart(scenario(scenarioName)), tools: hermesTools, seed };
}

test('the same request gives a byte-identical response, whatever the key order', () => {
  const body = agentBody('kimi-k3', 'fix-inventory-bug', 3);
  const reordered = { seed: 3, tools: hermesTools, messages: body.messages, model: 'kimi-k3' };
  const first = JSON.stringify(ok(body));
  assert.equal(JSON.stringify(ok(body)), first);
  assert.equal(JSON.stringify(ok(reordered)), first);
  assert.equal(
    JSON.stringify(simulateChatCompletion(body, realRates)),
    JSON.stringify(simulateChatCompletion(body, realRates)),
  );
});

test('different seeds change outcomes across scenarios and models', () => {
  let differing = 0;
  let pairs = 0;
  for (const target of scenarios) {
    for (const entry of allowlist.models) {
      const base = ok(agentBody(entry.id, target.name, 0)).completion.choices[0].message;
      for (let seed = 1; seed <= 5; seed++) {
        pairs++;
        const other = ok(agentBody(entry.id, target.name, seed)).completion.choices[0].message;
        // Ids differ by construction; compare what the model did.
        if (
          JSON.stringify({ ...other, tool_calls: other.tool_calls?.map((c) => c.function) }) !==
          JSON.stringify({ ...base, tool_calls: base.tool_calls?.map((c) => c.function) })
        )
          differing++;
      }
    }
  }
  assert.ok(differing > pairs * 0.2, `${differing} of ${pairs} seed pairs differed`);
  assert.notEqual(
    ok({ ...agentBody('glm-5.2', 'csv-sales-report', 0) }).completion.id,
    ok(agentBody('glm-5.2', 'csv-sales-report', 1)).completion.id,
  );
});

test('usage counts the prompt with the tokenizer and caches earlier messages', () => {
  const body = agentBody('glm-5.2', 'csv-sales-report', 0);
  const first = ok(body);
  const { usage } = first.completion;
  assert.equal(usage.prompt_tokens, countPromptTokens(body).promptTokens);
  assert.equal(usage.total_tokens, usage.prompt_tokens + usage.completion_tokens);
  assert.equal(usage.prompt_tokens_details.cached_tokens, 0);
  const call = first.completion.choices[0].message.tool_calls?.[0] ?? {
    id: 'c',
    function: { name: 'terminal', arguments: '{}' },
  };
  const second = ok({ ...body, messages: afterToolCall(body.messages, call) });
  const cached = second.completion.usage.prompt_tokens_details.cached_tokens;
  assert.ok(cached > 0 && cached % 64 === 0 && cached < second.completion.usage.prompt_tokens);
  const completion = first.completion.choices[0].message;
  const generated = completion.tool_calls
    ? countTokens(completion.tool_calls[0]!.function.name) + countTokens(completion.tool_calls[0]!.function.arguments)
    : countTokens(completion.content ?? '');
  assert.equal(usage.completion_tokens, generated);
  assert.equal(first.latencyMs, 600);
  assert.equal(first.generationMs, (usage.completion_tokens / 60) * 1000);
});

test('max_tokens is honoured: the completion is cut and says length', () => {
  const full = ok(agentBody('glm-5.2', 'sqlite-orders-analytics', 0)).completion;
  for (const limit of [1, 2, 20, 300]) {
    for (const field of ['max_tokens', 'max_completion_tokens']) {
      const capped = ok({ ...agentBody('glm-5.2', 'sqlite-orders-analytics', 0), [field]: limit }).completion;
      assert.ok(capped.usage.completion_tokens <= limit, `${field}=${limit} gave ${capped.usage.completion_tokens}`);
      assert.equal(capped.choices[0].finish_reason, 'length');
      const cappedArgs = capped.choices[0].message.tool_calls?.[0]?.function.arguments ?? '';
      assert.ok(full.choices[0].message.tool_calls![0]!.function.arguments.startsWith(cappedArgs));
    }
  }
  const text = ok({ model: 'glm-5.2', messages: [{ role: 'user', content: 'hi' }], max_tokens: 4 }).completion;
  assert.equal(text.usage.completion_tokens, 4);
  assert.equal(text.choices[0].finish_reason, 'length');
  assert.match(text.choices[0].message.content ?? '', /^\[simulated/);
  const roomy = ok({ model: 'glm-5.2', messages: [{ role: 'user', content: 'hi' }], max_tokens: 4000 }).completion;
  assert.equal(roomy.choices[0].finish_reason, 'stop');
});

test('errors: unknown model 404, bad field 400, context length 400', () => {
  const missing = simulateChatCompletion({ model: 'gpt-9', messages: [{ role: 'user', content: 'x' }] }, context);
  assert.ok(!missing.ok);
  assert.deepEqual([missing.error.status, missing.error.code, missing.error.param], [404, 'model_not_found', 'model']);
  const bad = simulateChatCompletion({ model: 'glm-5.2', messages: [{ role: 'user' }] }, context);
  assert.ok(!bad.ok);
  assert.deepEqual(
    [bad.error.status, bad.error.type, bad.error.param],
    [400, 'invalid_request_error', 'messages[0].content'],
  );
  const tiny: FleetContext = {
    scenarios,
    allowlist: { ...context.allowlist, models: context.allowlist.models.map((m) => ({ ...m, contextWindow: 50 })) },
  };
  const long = simulateChatCompletion(
    { model: 'glm-5.2', messages: [{ role: 'user', content: 'word '.repeat(60) }] },
    tiny,
  );
  assert.ok(!long.ok);
  assert.deepEqual(
    [long.error.status, long.error.code, long.error.param],
    [400, 'context_length_exceeded', 'messages'],
  );
  assert.match(long.error.message, /maximum context length is 50 tokens/);
});

test('faults come at the profile rates and repeat for the same request', () => {
  const counts = { 429: 0, 500: 0, 503: 0, ok: 0 };
  const n = 3000;
  for (let seed = 0; seed < n; seed++) {
    const body = { model: 'glm-5.3-flash', messages: [{ role: 'user', content: 'ping' }], seed };
    const result = simulateChatCompletion(body, realRates);
    if (result.ok) counts.ok++;
    else {
      counts[result.error.status as 429 | 500 | 503]++;
      const retried = [2, 3, 4, 5, 6, 7].map((attempt) => simulateChatCompletion(body, realRates, attempt));
      assert.ok(
        retried.some((r) => r.ok),
        'each retry rolls its own fault: one of six succeeds',
      );
      assert.deepEqual(simulateChatCompletion(body, realRates), result, 'the same request fails the same way');
      if (result.error.status === 429) assert.equal(result.error.code, 'rate_limit_exceeded');
      if (result.error.status >= 500) assert.ok(result.delayMs > 0);
    }
  }
  assert.ok(Math.abs(counts[429] / n - 0.02) < 0.01, JSON.stringify(counts));
  assert.ok(Math.abs((counts[500] + counts[503]) / n - 0.01) < 0.006, JSON.stringify(counts));
  assert.ok(counts[500] > 0 && counts[503] > 0);
});

test("a scenario's later try rolls its faults anew, so a transient 500 does not follow the scenario into every re-run", () => {
  let faulted = 0;
  for (let seed = 0; seed < 3000; seed++) {
    const body = { model: 'glm-5.3-flash', messages: [{ role: 'user', content: 'ping' }], seed };
    const first = simulateChatCompletion(body, realRates);
    if (first.ok) continue;
    faulted += 1;
    const later = ['2.1', '3.1', '1.2'].map((tryKey) => simulateChatCompletion(body, realRates, 1, tryKey));
    assert.ok(
      later.some((r) => r.ok),
      `seed ${seed}: one of three later tries succeeds`,
    );
    assert.deepEqual(simulateChatCompletion(body, realRates, 1, '2.1'), later[0], 'a try is deterministic too');
  }
  assert.ok(faulted > 30, `${faulted} faulted first tries`);
});

test('response_format json_schema gets JSON that validates; json_object gets an object', () => {
  const verdict = z.object({
    verdict: z.enum(['pass', 'reject']),
    reasons: z.array(z.string()).min(1),
    risk: z.number().min(0).max(1),
  });
  for (let seed = 0; seed < 20; seed++) {
    const body = {
      model: 'glm-5.2',
      seed,
      messages: [{ role: 'user', content: 'Judge this policy pack.' }],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'verdict', strict: true, schema: z.toJSONSchema(verdict) },
      },
    };
    const message = ok(body).completion.choices[0].message;
    assert.equal(message.tool_calls, undefined);
    verdict.parse(JSON.parse(message.content ?? ''));
  }
  const object = ok({
    model: 'glm-5.2',
    messages: [{ role: 'user', content: 'x' }],
    response_format: { type: 'json_object' },
  });
  assert.equal(typeof JSON.parse(object.completion.choices[0].message.content ?? ''), 'object');
});

test('every response names the simulator', () => {
  const { completion } = ok({ model: 'qwen3.6-35b-a3b', messages: [{ role: 'user', content: 'x' }] });
  assert.equal(completion.system_fingerprint, 'trl-sim-fleet');
  assert.equal(completion.object, 'chat.completion');
  assert.match(completion.id, /^chatcmpl-[0-9a-f]{24}$/);
});
