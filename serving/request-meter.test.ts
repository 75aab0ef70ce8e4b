import { test } from 'node:test';
import assert from 'node:assert/strict';
import { requestCost, usageOf, withStreamUsage } from './request-meter.ts';

test('the cost of a request sums its calls; models that answered are listed once, refused ones not', () => {
  const cost = requestCost([
    { model: 'qwen3.6-35b-a3b', costUsd: 0.001, promptTokens: 100, completionTokens: 10 },
    { model: 'glm-5.3', costUsd: 0, promptTokens: 0, completionTokens: 0 },
    { model: 'glm-5.3-flash', costUsd: 0.002, promptTokens: 200, completionTokens: 20 },
    { model: 'qwen3.6-35b-a3b', costUsd: 0.001, promptTokens: 100, completionTokens: 10 },
  ]);
  assert.deepEqual(cost, {
    costUsd: 0.004,
    models: ['qwen3.6-35b-a3b', 'glm-5.3-flash'],
    calls: 4,
    promptTokens: 400,
    completionTokens: 40,
  });
  assert.equal(usageOf(cost).total_tokens, 440);
});

test('a streamed answer gets its usage chunk replaced, or one added before [DONE]', () => {
  const usage = { cost_usd: 0.5 };
  const withUsage =
    'data: {"id":"x","model":"auto","choices":[{"delta":{"content":"hi"}}]}\n\ndata: {"id":"x","choices":[],"usage":{"prompt_tokens":1}}\n\ndata: [DONE]\n\n';
  const replaced = withStreamUsage(withUsage, usage);
  assert.match(replaced, /"usage":\{"cost_usd":0.5\}\}\n\ndata: \[DONE\]\n\n$/);
  assert.doesNotMatch(replaced, /prompt_tokens/);
  const added = withStreamUsage('data: {"id":"y","model":"auto","choices":[]}\n\ndata: [DONE]\n\n', usage);
  assert.match(added, /"id":"y".*"usage":\{"cost_usd":0.5\}\}\n\ndata: \[DONE\]\n\n$/s);
});
