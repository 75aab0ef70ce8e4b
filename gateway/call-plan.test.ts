import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planCall } from './call-plan.ts';
import { loadAllowlist } from './catalog/allowlist.ts';

const glm = loadAllowlist().models.find((m) => m.id === 'glm-5.2')!;

test('max_tokens is clamped to what the remaining budget can buy', () => {
  const plan = planCall({ model: glm, promptTokens: 1000, requestedMaxTokens: 1_000_000, remainingUsd: 0.01, floorTokens: 16 });
  assert.ok(plan.ok);
  // $0.01 - 1000 × $0.68/M = $0.00932 buys 6213 output tokens at $1.50/M.
  assert.equal(plan.maxTokens, 6213);
  assert.ok(plan.reserveUsd <= 0.01);
});

test('below the floor the call is refused as budget_exceeded', () => {
  const plan = planCall({ model: glm, promptTokens: 1000, remainingUsd: 0.0007, floorTokens: 16 });
  assert.equal(plan.ok, false);
  assert.equal(!plan.ok && plan.reason, 'budget_exceeded');
});

test('a prompt past the context window is refused as context_length_exceeded', () => {
  const plan = planCall({ model: glm, promptTokens: glm.contextWindow, remainingUsd: 1, floorTokens: 16 });
  assert.equal(!plan.ok && plan.reason, 'context_length_exceeded');
});

test('a small request is not inflated', () => {
  const plan = planCall({ model: glm, promptTokens: 10, requestedMaxTokens: 5, remainingUsd: 1, floorTokens: 16 });
  assert.ok(plan.ok);
  assert.equal(plan.maxTokens, 5);
});
