// Property: whatever a hostile policy does — 100 parallel calls, huge max_tokens, any prices,
// any interleaving of upstream answers — spend never passes the cap, and every call is logged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type OpenAI from 'openai';
import { ModelGateway } from './model-gateway.ts';
import { CallLog } from './call-log.ts';
import { GatewayError } from './gateway-error.ts';
import { countTextTokens } from './prompt-tokens.ts';
import type { Allowlist } from './catalog/allowlist.ts';

function allowlistWith(prices: { input: number; output: number }[]): Allowlist {
  return {
    version: 1,
    models: prices.map((p, i) => ({
      id: `m${i}`, operatorDefault: true,
      pricing: { inputUsdPerMillion: p.input, cachedInputUsdPerMillion: p.input / 4, outputUsdPerMillion: p.output },
      contextWindow: 200_000, maxOutputTokens: 100_000, supportsTools: true,
      sim: { latencyMs: 0, tokensPerSecond: 1, competence: { base: 0.5, byDifficulty: { easy: 1, medium: 1, hard: 1 }, byCategory: {} }, rateLimitRate: 0, serverErrorRate: 0 },
    })),
  };
}

/** Worst-case upstream: uses every output token it is allowed, bills the prompt by a real tokenizer, answers after random delays. */
function greedyUpstream(delays: number[]): OpenAI {
  let n = 0;
  return {
    chat: {
      completions: {
        async create(body: { max_tokens: number; messages: { content: string }[] }) {
          const delay = delays[n++ % delays.length] ?? 0;
          await new Promise((resolve) => setTimeout(resolve, delay));
          const promptTokens = body.messages.reduce((t, m) => t + countTextTokens(m.content), 0);
          return { id: 'x', object: 'chat.completion', created: 0, model: 'x', choices: [{ index: 0, message: { role: 'assistant', content: 'y' }, finish_reason: 'length' }], usage: { prompt_tokens: promptTokens, completion_tokens: body.max_tokens, total_tokens: promptTokens + body.max_tokens } };
        },
      },
    },
  } as unknown as OpenAI;
}

test('100 parallel greedy calls never spend past the cap, under random prices and schedules', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.record({ input: fc.double({ min: 0.01, max: 20, noNaN: true }), output: fc.double({ min: 0.05, max: 80, noNaN: true }) }), { minLength: 1, maxLength: 8 }),
      fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 20 }),
      fc.double({ min: 0.001, max: 2, noNaN: true }),
      fc.array(fc.string({ minLength: 1, maxLength: 400 }), { minLength: 1, maxLength: 5 }),
      async (prices, delays, capUsd, prompts) => {
        const log = new CallLog();
        const gateway = new ModelGateway({ allowlist: allowlistWith(prices), upstream: greedyUpstream(delays), capUsd, callLog: log, seed: 0 });
        const calls = Array.from({ length: 100 }, (_, i) =>
          gateway.complete({ messages: [{ role: 'user', content: prompts[i % prompts.length] }] }, { model: `m${i % prices.length}`, maxTokens: 10_000_000 }).then(
            () => 'ok',
            (error: unknown) => {
              assert.ok(error instanceof GatewayError, String(error));
              return error.type;
            },
          ),
        );
        const outcomes = await Promise.all(calls);
        assert.ok(gateway.ledger.spentUsd <= capUsd + 1e-9, `spent ${gateway.ledger.spentUsd} of a ${capUsd} cap`);
        assert.equal(log.entries.length, 100, 'every call, refused or not, is in the log');
        const logged = log.entries.reduce((t, e) => t + e.costUsd, 0);
        assert.ok(Math.abs(logged - gateway.ledger.spentUsd) < 1e-9, 'every cent is in the log');
        assert.ok(outcomes.every((o) => o === 'ok' || o === 'budget_exceeded'), outcomes.join(','));
      },
    ),
    { numRuns: 60 },
  );
});

test('models outside the allowlist are refused and logged, and cost nothing', async () => {
  const log = new CallLog();
  const gateway = new ModelGateway({ allowlist: allowlistWith([{ input: 1, output: 1 }]), upstream: greedyUpstream([0]), capUsd: 1, callLog: log, seed: 0 });
  await assert.rejects(gateway.complete({ messages: [{ role: 'user', content: 'hi' }] }, { model: 'gpt-unlisted' }), (e: unknown) => e instanceof GatewayError && e.type === 'model_not_allowed' && e.status === 403);
  assert.equal(log.entries[0]?.status, 'refused');
  assert.equal(gateway.ledger.spentUsd, 0);
});
