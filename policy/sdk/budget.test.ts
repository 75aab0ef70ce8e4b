import { test } from 'node:test';
import assert from 'node:assert/strict';
import { affordableMaxTokens, estimateCallCostUsd, estimateTokens, findModel, fitsContext } from './budget.ts';
import type { ChatCompletionRequest, ModelInfo } from './types.ts';

const models: ModelInfo[] = [
  {
    id: 'cheap',
    inputUsdPerMillion: 0.1,
    cachedInputUsdPerMillion: 0.05,
    outputUsdPerMillion: 0.5,
    contextWindow: 1000,
    maxOutputTokens: 8192,
    supportsTools: true,
  },
  {
    id: 'dear',
    inputUsdPerMillion: 1,
    cachedInputUsdPerMillion: 0.5,
    outputUsdPerMillion: 10,
    contextWindow: 100_000,
    maxOutputTokens: 4096,
    supportsTools: true,
  },
];
const request: ChatCompletionRequest = { messages: [{ role: 'user', content: 'x'.repeat(3500) }] };
const ctx = (remainingUsd: number) => ({ models, budget: { capUsd: 1, spentUsd: 1 - remainingUsd, remainingUsd } });

test('token and cost estimates grow with the conversation', () => {
  const tokens = estimateTokens(request);
  assert.ok(tokens >= 1000 && tokens < 1100, String(tokens));
  assert.ok(
    estimateTokens({
      ...request,
      tools: [{ type: 'function', function: { name: 'terminal', description: 'x'.repeat(350) } }],
    }) > tokens,
  );
  assert.ok(
    Math.abs(estimateCallCostUsd(findModel(models, 'dear')!, request, 1000) - (tokens * 1 + 1000 * 10) / 1e6) < 1e-12,
  );
});

test('affordableMaxTokens clamps to the wish, the model limit and the budget', () => {
  assert.equal(affordableMaxTokens(ctx(1), 'dear', request, 2000), 2000);
  assert.equal(affordableMaxTokens(ctx(1), 'dear', request, 100_000), 4096, 'the model limit');
  const tight = affordableMaxTokens(ctx(0.01), 'dear', request, 4096);
  assert.ok(tight > 800 && tight < 1000, `what $0.01 buys after the input: ${tight}`);
  assert.equal(affordableMaxTokens(ctx(0.001), 'dear', request, 4096, { minimum: 256 }), 0, 'below the minimum');
  assert.equal(affordableMaxTokens(ctx(0), 'cheap', request, 4096), 0);
  assert.equal(affordableMaxTokens(ctx(1), 'unknown', request, 4096), 0);
  assert.ok(affordableMaxTokens(ctx(1), 'dear', request, 4096, { shareUsd: 0.01 }) < 1000, 'a fan-out share');
});

test('fitsContext compares the estimate with the window', () => {
  assert.equal(fitsContext(models, 'cheap', request, 500), false);
  assert.equal(fitsContext(models, 'dear', request, 500), true);
  assert.equal(fitsContext(models, 'unknown', request), false);
});
