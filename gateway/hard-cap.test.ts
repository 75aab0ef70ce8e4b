// Property: whatever a hostile policy does — 100 parallel calls, huge max_tokens, n > 1, any
// prices, any interleaving of upstream answers, failures after sending — spend never passes the
// cap while the upstream bills no more prompt than the bound, and every cent is in the log. An
// upstream that bills more (overshoot) is charged the reservation, is counted as the upstream's
// failure and closes the episode: nothing reserved after that goes out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import OpenAI from 'openai';
import { ModelGateway } from './model-gateway.ts';
import { CallLog } from './call-log.ts';
import { GatewayError } from './gateway-error.ts';
import { splitBilledBody } from './meter/prompt-estimate.ts';
import { promptBoundTokens } from './meter/prompt-bound.ts';
import type { Allowlist } from './catalog/allowlist.ts';

export function allowlistWith(prices: { input: number; output: number }[]): Allowlist {
  return {
    version: 1,
    models: prices.map((p, i) => ({
      id: `m${i}`,
      pricing: { inputUsdPerMillion: p.input, cachedInputUsdPerMillion: 0, outputUsdPerMillion: p.output },
      contextWindow: 200_000,
      maxOutputTokens: 100_000,
      supportsTools: true,
      sim: {
        latencyMs: 0,
        tokensPerSecond: 1,
        competence: { base: 0.5, byDifficulty: { easy: 1, medium: 1, hard: 1 }, byCategory: {} },
        rateLimitRate: 0,
        serverErrorRate: 0,
      },
    })),
  };
}

interface UpstreamBody {
  max_tokens: number;
  n?: number;
  messages: unknown[];
}

/**
 * Worst-case upstream: bills its prompt at `promptFactor` × the bound, uses every output token
 * of every answer, answers after random delays, and fails some calls after sending.
 */
function greedyUpstream(delays: number[], options: { promptFactor?: number; failEvery?: number } = {}): OpenAI {
  let calls = 0;
  return {
    chat: {
      completions: {
        async create(body: UpstreamBody) {
          const index = calls++;
          await new Promise((resolve) => setTimeout(resolve, delays[index % delays.length] ?? 0));
          if (options.failEvery && index % options.failEvery === 0) throw new OpenAI.APIConnectionTimeoutError();
          const record = body as unknown as Record<string, unknown>;
          const promptTokens = Math.ceil(
            promptBoundTokens(record, splitBilledBody(record).billedJson) * (options.promptFactor ?? 1),
          );
          const completionTokens = body.max_tokens * (body.n ?? 1);
          return {
            id: `up-${index}`,
            object: 'chat.completion',
            created: 0,
            model: 'x',
            choices: [{ index: 0, message: { role: 'assistant', content: 'y' }, finish_reason: 'length' }],
            usage: {
              prompt_tokens: promptTokens,
              completion_tokens: completionTokens,
              total_tokens: promptTokens + completionTokens,
            },
          };
        },
      },
    },
  } as unknown as OpenAI;
}

// Prices in whole thousandths of a dollar per million tokens, as the price table requires.
const price = (min: number, max: number) => fc.integer({ min, max }).map((thousandths) => thousandths / 1000);

async function fireCalls(
  gateway: ModelGateway,
  models: number,
  prompts: string[],
  answers: number[],
): Promise<string[]> {
  const calls = Array.from({ length: 100 }, (_, i) =>
    gateway
      .complete(
        { messages: [{ role: 'user', content: prompts[i % prompts.length] }], n: answers[i % answers.length] },
        { model: `m${i % models}`, maxTokens: 10_000_000 },
      )
      .then(
        () => 'ok',
        (error: unknown) => {
          assert.ok(error instanceof GatewayError, String(error));
          return error.type;
        },
      ),
  );
  return Promise.all(calls);
}

test('100 parallel greedy calls never spend past the cap, under random prices, answer counts, failures and schedules', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.record({ input: price(0, 20_000), output: price(50, 80_000) }), { minLength: 1, maxLength: 8 }),
      fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 20 }),
      fc.integer({ min: 1000, max: 2_000_000 }).map((microUsd) => microUsd / 1e6),
      fc.array(fc.string({ minLength: 1, maxLength: 400, unit: 'binary' }), { minLength: 1, maxLength: 5 }),
      fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 4 }),
      fc.constantFrom(0, 3, 7),
      async (prices, delays, capUsd, prompts, answers, failEvery) => {
        const log = new CallLog();
        const gateway = new ModelGateway({
          allowlist: allowlistWith(prices),
          upstream: greedyUpstream(delays, { failEvery }),
          capUsd,
          callLog: log,
          seed: 0,
          retryDelaysMs: [],
        });
        const outcomes = await fireCalls(gateway, prices.length, prompts, answers);
        assert.ok(
          gateway.meter.spentNanoUsd <= gateway.meter.capNanoUsd,
          `spent ${gateway.ledger.spentUsd} of a ${capUsd} cap`,
        );
        assert.equal(gateway.meter.closed, false, 'an upstream billing within the bound never overshoots');
        assert.equal(log.entries.length, 100, 'every call, refused or not, is in the log');
        assert.equal(log.inFlightCount, 0);
        const logged = log.entries.reduce((t, e) => t + e.costUsd, 0);
        assert.ok(Math.abs(logged - gateway.ledger.spentUsd) < 1e-9, 'every cent is in the log');
        assert.ok(
          outcomes.every((o) => o === 'ok' || o === 'cap' || o === 'upstream_timeout'),
          outcomes.join(','),
        );
      },
    ),
    { numRuns: 60 },
  );
});

test("an upstream billing past the bound is charged the reservation, counted as the upstream's, and closes the episode", async () => {
  const log = new CallLog();
  const gateway = new ModelGateway({
    allowlist: allowlistWith([{ input: 1, output: 1 }]),
    upstream: greedyUpstream([0], { promptFactor: 3 }),
    capUsd: 1,
    callLog: log,
    seed: 0,
  });
  await gateway.complete({ messages: [{ role: 'user', content: 'hello' }] }, { model: 'm0', maxTokens: 100 });
  assert.equal(gateway.meter.closed, true);
  const ended = log.entries[0]!;
  assert.ok(ended.status === 'ok' && ended.overshootUsd > 0, JSON.stringify(ended));
  assert.equal(ended.costUsd, ended.reservedUsd, 'charged the reservation, never the excess');
  assert.equal(gateway.upstreamFailures, 1, "the upstream's fault");
  assert.ok(gateway.meter.spentNanoUsd <= gateway.meter.capNanoUsd);
  await assert.rejects(
    gateway.complete({ messages: [{ role: 'user', content: 'again' }] }, { model: 'm0', maxTokens: 100 }),
    (e: unknown) =>
      e instanceof GatewayError && e.type === 'cap' && e.status === 402 && /episode closed/.test(e.message),
  );
  assert.equal(log.entries[1]?.status, 'refused');
  assert.equal(gateway.budgetRefusals, 1);
});

test('models outside the allowlist are refused with 400 naming the allowlist, logged, and cost nothing', async () => {
  const log = new CallLog();
  const gateway = new ModelGateway({
    allowlist: allowlistWith([{ input: 1, output: 1 }]),
    upstream: greedyUpstream([0]),
    capUsd: 1,
    callLog: log,
    seed: 0,
  });
  await assert.rejects(
    gateway.complete({ messages: [{ role: 'user', content: 'hi' }] }, { model: 'gpt-unlisted' }),
    (e: unknown) =>
      e instanceof GatewayError &&
      e.type === 'model_not_allowed' &&
      e.status === 400 &&
      /allowlist: m0/.test(e.message),
  );
  assert.equal(log.entries[0]?.status, 'refused');
  assert.equal(gateway.ledger.spentUsd, 0);
});
