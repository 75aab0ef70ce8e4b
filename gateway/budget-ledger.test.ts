import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BudgetLedger } from './budget-ledger.ts';
import { EpisodeMeter } from './meter/episode-meter.ts';

const prices = { promptUsdPerMillionTokens: 1, completionUsdPerMillionTokens: 10, cacheReadUsdPerMillionTokens: 0.1 };

test('the ledger shows the meter in dollars: spent, held by calls in flight, remaining', () => {
  const meter = new EpisodeMeter(1);
  const ledger = new BudgetLedger(meter);
  const call = meter.reserve({ prices, promptBoundTokens: 1000, maxTokens: 10_000 });
  assert.ok(call.ok);
  // 1000 × $1/M + 10,000 × $10/M = $0.101 held.
  assert.equal(ledger.reservedUsd, 0.101);
  assert.equal(ledger.remainingUsd, 0.899);
  meter.settle(call.reservationId, { prompt_tokens: 500, completion_tokens: 100 }, { failedAfterSend: false });
  assert.equal(ledger.spentUsd, 0.0015);
  assert.deepEqual(ledger.view(), { capUsd: 1, spentUsd: 0.0015, remainingUsd: 0.9985 });
});
