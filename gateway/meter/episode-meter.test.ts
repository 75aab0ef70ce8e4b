import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EpisodeMeter, minimumMaxTokens, type ModelPrices, type ReserveResult } from './episode-meter.ts';

const glm53: ModelPrices = {
  promptUsdPerMillionTokens: 0.98,
  completionUsdPerMillionTokens: 3.08,
  cacheReadUsdPerMillionTokens: 0.18,
};
const kimiK3: ModelPrices = {
  promptUsdPerMillionTokens: 1.95,
  completionUsdPerMillionTokens: 9.75,
  cacheReadUsdPerMillionTokens: 0.195,
};

function accepted(result: ReserveResult): Extract<ReserveResult, { ok: true }> {
  assert.equal(result.ok, true, result.ok ? '' : result.message);
  return result as Extract<ReserveResult, { ok: true }>;
}

test('worked example: reserve the bound, settle from usage', () => {
  const meter = new EpisodeMeter(1);
  // a 53-token prompt bound × $0.98/M = $0.00005194; no max_tokens, so 8192 × $3.08/M = $0.02523136
  const reservation = accepted(meter.reserve({ prices: glm53, promptBoundTokens: 53 }));
  assert.equal(reservation.maxTokens, 8192);
  assert.equal(reservation.clamped, false);
  assert.equal(meter.reservedNanoUsd, 25_283_300n);
  assert.equal(reservation.reservedUsd, 0.0252833);
  assert.deepEqual(meter.budget(), { cap_usd: 1, spent_usd: 0, reserved_usd: 0.025283, remaining_usd: 0.974717 });

  // 20 prompt tokens × $0.98/M + 100 completion tokens × $3.08/M = $0.0000196 + $0.000308
  const settlement = meter.settle(
    reservation.reservationId,
    { prompt_tokens: 20, completion_tokens: 100 },
    { failedAfterSend: false },
  );
  assert.equal(settlement.costNanoUsd, 327_600n);
  assert.equal(settlement.costUsd, 0.0003276);
  assert.equal(settlement.basis, 'usage');
  assert.equal(settlement.overshoot, false);
  assert.deepEqual(meter.budget(), { cap_usd: 1, spent_usd: 0.000328, reserved_usd: 0, remaining_usd: 0.999672 });
  assert.equal(meter.remainingUsdHeader(), '0.999672');
});

test('a length that does not fit is clamped to what does', () => {
  const meter = new EpisodeMeter(0.3);
  // prompt 10,000 × $1.95/M = $0.0195; $0.2805 left pays for floor(0.2805 / 0.00000975) = 28,769 tokens
  const reservation = accepted(meter.reserve({ prices: kimiK3, promptBoundTokens: 10_000, maxTokens: 50_000 }));
  assert.equal(reservation.maxTokens, 28_769);
  assert.equal(reservation.clamped, true);
  assert.equal(meter.reservedNanoUsd, 299_997_750n);
  assert.ok(meter.remainingNanoUsd >= 0n);
});

test('as many tokens as fit when the request asks for an unbounded length', () => {
  const meter = new EpisodeMeter(1);
  const reservation = accepted(meter.reserve({ prices: kimiK3, promptBoundTokens: 0, maxTokens: Infinity }));
  assert.equal(reservation.maxTokens, 102_564); // floor(1e9 nano-dollars / 9750)
  assert.equal(reservation.clamped, true);
});

test('n answers are reserved as n full-length answers and clamped per answer', () => {
  const meter = new EpisodeMeter(1);
  // prompt 1,000 × $1.95/M = $0.00195; 3 answers × 8192 × $9.75/M = $0.239616
  const three = accepted(meter.reserve({ prices: kimiK3, promptBoundTokens: 1000, n: 3 }));
  assert.equal(three.maxTokens, 8192);
  assert.equal(meter.reservedNanoUsd, 241_566_000n);
  meter.release(three.reservationId);
  // 40 answers of 8192 cannot fit in $1: per answer floor((1e9 − 1,950,000) / (9750 × 40)) = 2559
  const forty = accepted(meter.reserve({ prices: kimiK3, promptBoundTokens: 1000, n: 40 }));
  assert.equal(forty.maxTokens, 2559);
  assert.equal(forty.clamped, true);
  assert.ok(meter.remainingNanoUsd >= 0n);
});

test('refused when the prompt alone does not fit, or fewer than 64 tokens do', () => {
  const meter = new EpisodeMeter(0.001); // 1,000,000 nano-dollars
  const promptTooBig = meter.reserve({ prices: kimiK3, promptBoundTokens: 513 }); // 513 × 1950 ≥ 1,000,000
  assert.equal(promptTooBig.ok, false);
  if (!promptTooBig.ok) {
    assert.equal(promptTooBig.type, 'cap');
    assert.equal(promptTooBig.reason, 'prompt-exceeds-remaining');
    assert.match(promptTooBig.message, /episode cap \$0\.001000.*prompt alone/);
  }
  // 450 × 1950 = 877,500 leaves 122,500 = 12 tokens at 9750
  const tooShort = meter.reserve({ prices: kimiK3, promptBoundTokens: 450 });
  assert.equal(tooShort.ok, false);
  if (!tooShort.ok) assert.equal(tooShort.reason, 'below-minimum-tokens');
  assert.equal(meter.reservedNanoUsd, 0n);
});

test('the 64-token floor is inclusive', () => {
  const pricePerToken = 9750n;
  const exactlyMinimum = new EpisodeMeter(Number(pricePerToken * BigInt(minimumMaxTokens)) / 1e9);
  const reservation = accepted(exactlyMinimum.reserve({ prices: kimiK3, promptBoundTokens: 0, maxTokens: 1000 }));
  assert.equal(reservation.maxTokens, 64);
  const oneShort = new EpisodeMeter(Number(pricePerToken * BigInt(minimumMaxTokens) - 1n) / 1e9);
  assert.equal(oneShort.reserve({ prices: kimiK3, promptBoundTokens: 0, maxTokens: 1000 }).ok, false);
});

test('parallel calls reserve against what the calls in flight leave', () => {
  const meter = new EpisodeMeter(0.1);
  const first = accepted(meter.reserve({ prices: kimiK3, promptBoundTokens: 0, maxTokens: 8192 })); // $0.079872
  const second = accepted(meter.reserve({ prices: kimiK3, promptBoundTokens: 0, maxTokens: 8192 }));
  assert.equal(first.clamped, false);
  assert.equal(second.clamped, true);
  assert.equal(second.maxTokens, 2064); // floor(20,128,000 / 9750) = floor(2064.4)
  assert.equal(meter.reserve({ prices: kimiK3, promptBoundTokens: 0 }).ok, false);
  meter.release(second.reservationId);
  assert.equal(accepted(meter.reserve({ prices: kimiK3, promptBoundTokens: 0 })).maxTokens, 2064);
});

test('release charges nothing; a reservation settles or releases once', () => {
  const meter = new EpisodeMeter(1);
  const reservation = accepted(meter.reserve({ prices: glm53, promptBoundTokens: 100 }));
  meter.release(reservation.reservationId);
  assert.equal(meter.spentNanoUsd, 0n);
  assert.equal(meter.reservedNanoUsd, 0n);
  assert.throws(() => meter.release(reservation.reservationId), /not an open reservation/);
  assert.throws(
    () => meter.settle(reservation.reservationId, undefined, { failedAfterSend: true }),
    /not an open reservation/,
  );
});

test('a call that failed after sending, or came back without valid usage, is charged its reservation', () => {
  const meter = new EpisodeMeter(1);
  for (const [usage, failedAfterSend, basis] of [
    [undefined, true, 'failed-after-send'],
    [undefined, false, 'missing-usage'],
    [{ prompt_tokens: -5, completion_tokens: 10 }, false, 'invalid-usage'],
    [{ completion_tokens: 10 }, false, 'invalid-usage'],
  ] as const) {
    const reservation = accepted(meter.reserve({ prices: glm53, promptBoundTokens: 53, maxTokens: 100 }));
    const settlement = meter.settle(reservation.reservationId, usage, { failedAfterSend });
    assert.equal(settlement.basis, basis);
    assert.equal(settlement.costNanoUsd, 53n * 980n + 100n * 3080n);
    assert.equal(settlement.overshoot, false);
  }
  // failed after send but usage arrived (a stream that broke after its usage frame): usage is charged
  const reservation = accepted(meter.reserve({ prices: glm53, promptBoundTokens: 53, maxTokens: 100 }));
  const settlement = meter.settle(
    reservation.reservationId,
    { prompt_tokens: 1, completion_tokens: 1 },
    { failedAfterSend: true },
  );
  assert.equal(settlement.basis, 'usage');
  assert.equal(settlement.costNanoUsd, 980n + 3080n);
});

test('cached prompt tokens are billed at the cache-read price, never below zero', () => {
  const meter = new EpisodeMeter(1);
  const first = accepted(meter.reserve({ prices: glm53, promptBoundTokens: 2000 }));
  // 1000 uncached × 980 + 800 cached × 180 + 50 × 3080
  const usage = { prompt_tokens: 1800, completion_tokens: 50, prompt_tokens_details: { cached_tokens: 800 } };
  assert.equal(
    meter.settle(first.reservationId, usage, { failedAfterSend: false }).costNanoUsd,
    980_000n + 144_000n + 154_000n,
  );
  const second = accepted(meter.reserve({ prices: glm53, promptBoundTokens: 2000 }));
  // more cached than prompt tokens reported: cached is taken as the whole prompt
  const odd = { prompt_tokens: 100, completion_tokens: 0, prompt_tokens_details: { cached_tokens: 5000 } };
  assert.equal(meter.settle(second.reservationId, odd, { failedAfterSend: false }).costNanoUsd, 100n * 180n);
});

test('an upstream billing beyond the reservation is charged the reservation; the excess is its own and closes the episode', () => {
  const meter = new EpisodeMeter(1);
  const small = accepted(meter.reserve({ prices: kimiK3, promptBoundTokens: 100, maxTokens: 100 }));
  const inFlight = accepted(meter.reserve({ prices: kimiK3, promptBoundTokens: 100, maxTokens: 100 }));
  // the upstream counted 5,000 prompt tokens where at most 100 were possible
  const settlement = meter.settle(
    small.reservationId,
    { prompt_tokens: 5000, completion_tokens: 10 },
    { failedAfterSend: false },
  );
  assert.equal(settlement.overshoot, true);
  assert.equal(settlement.costNanoUsd, 100n * 1950n + 100n * 9750n, 'charged the reservation, never more');
  assert.equal(settlement.overshootUsd, (5000 * 1950 + 10 * 9750 - (100 * 1950 + 100 * 9750)) / 1e9);
  assert.equal(meter.spentNanoUsd, settlement.costNanoUsd);
  assert.equal(meter.closed, true);
  const later = meter.reserve({ prices: glm53, promptBoundTokens: 1 });
  assert.equal(later.ok, false);
  if (!later.ok) {
    assert.equal(later.reason, 'closed');
    assert.match(
      later.message,
      /the upstream billed reservation-1 \$0\.009848, more than the \$0\.001170 bound reserved for it \(the upstream's fault/,
    );
  }
  assert.equal(
    meter.settle(inFlight.reservationId, { prompt_tokens: 1, completion_tokens: 1 }, { failedAfterSend: false })
      .overshoot,
    false,
  );
  assert.equal(meter.reservedNanoUsd, 0n);
  assert.ok(meter.spentNanoUsd <= meter.capNanoUsd);
});

test('bad inputs are programming errors and throw with the field named', () => {
  const meter = new EpisodeMeter(1);
  assert.throws(() => meter.reserve({ prices: glm53, promptBoundTokens: -1 }), /promptBoundTokens/);
  assert.throws(() => meter.reserve({ prices: glm53, promptBoundTokens: 1, n: 0 }), /n must be/);
  assert.throws(() => meter.reserve({ prices: glm53, promptBoundTokens: 1, maxTokens: 0 }), /maxTokens/);
  assert.throws(
    () => meter.reserve({ prices: { ...glm53, completionUsdPerMillionTokens: 0 }, promptBoundTokens: 1 }),
    /completion price must be above/,
  );
  assert.throws(() => new EpisodeMeter(-1), /episode cap/);
});
