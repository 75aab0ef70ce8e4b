import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderShadowSummary } from './serve-shadow-view.ts';
import type { ShadowSide } from '../serving/shadow-mirror.ts';

const side = (costUsd: number, models: Record<string, number>): ShadowSide => ({
  requests: 4,
  failed: 0,
  latencyP50Ms: 12,
  latencyP99Ms: 30,
  costUsd,
  costPerRequestUsd: costUsd / 4,
  models,
});

test("the shadow table puts live and shadow side by side, with each pack's latest scenario score", () => {
  const text = renderShadowSummary(
    {
      shadowPack: 'ab'.repeat(32),
      sampleRate: 0.25,
      capUsd: 1,
      skippedBusy: 2,
      skippedCap: 0,
      live: side(0.004, { 'qwen3.6-35b-a3b': 4 }),
      shadow: side(0.02, { 'kimi-k3': 4 }),
    },
    { shadow: { testsPassed: 201, testsTotal: 269, workflowId: 'evaluate-x' } },
  );
  assert.match(text, /4 request\(s\) mirrored \(25% of conversations; skipped 2 busy, 0 past the \$1 cap\)/);
  const [live, shadow] = text.split('\n').filter((line) => /^(live|shadow abab)/.test(line));
  assert.match(live!, /0\.001000 .*qwen3\.6-35b-a3b ×4 .*—$/);
  assert.match(shadow!, /0\.005000 .*kimi-k3 ×4 .*201\/269 \(evaluate-x\)$/);
});
