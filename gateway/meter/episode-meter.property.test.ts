// Hostile schedules against the episode meter: parallel reservations at random prices, huge and
// unbounded lengths, n > 1, abandoned calls, releases and overshooting usage, in any order (adversarial
// content through the real gateway: prompt-content.property.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { EpisodeMeter, minimumMaxTokens, type ModelPrices } from './episode-meter.ts';
import { defaultMaxTokens } from './request-limits.ts';
import { promptBoundTokens } from './prompt-bound.ts';

// Prices as whole thousandths of a dollar per million tokens (= nano-dollars per token).
const pricesArbitrary = fc.record({
  prompt: fc.integer({ min: 0, max: 20_000 }),
  completion: fc.integer({ min: 1, max: 20_000 }),
  cacheRead: fc.integer({ min: 0, max: 20_000 }),
});

const reserveArbitrary = fc.record({
  kind: fc.constant('reserve' as const),
  prices: pricesArbitrary,
  promptBoundTokens: fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 3_000_000 })),
  maxTokens: fc.oneof(
    fc.constant(undefined),
    fc.integer({ min: 1, max: 100_000 }),
    fc.constant(1e12),
    fc.constant(Infinity),
  ),
  n: fc.oneof(fc.constant(undefined), fc.integer({ min: 1, max: 16 }), fc.constant(1000)),
});

const usageArbitrary = fc.oneof(
  fc.record({
    shape: fc.constant('within' as const),
    promptFraction: fc.double({ min: 0, max: 1, noNaN: true }),
    cachedFraction: fc.double({ min: 0, max: 1, noNaN: true }),
    completionFraction: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  fc.record({ shape: fc.constant('failed-after-send' as const) }),
  fc.record({ shape: fc.constant('missing' as const) }),
  fc.record({ shape: fc.constant('invalid' as const) }),
  fc.record({ shape: fc.constant('overshoot' as const), extraPromptTokens: fc.integer({ min: 1, max: 10_000_000 }) }),
  fc.record({
    shape: fc.constant('arbitrary' as const),
    promptTokens: fc.integer({ min: 0, max: 10_000_000 }),
    cachedTokens: fc.integer({ min: 0, max: 10_000_000 }),
    completionTokens: fc.integer({ min: 0, max: 10_000_000 }),
  }),
);

const operationArbitrary = fc.oneof(
  { weight: 4, arbitrary: reserveArbitrary },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('settle' as const), pick: fc.nat(), usage: usageArbitrary }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('release' as const), pick: fc.nat() }) },
);

interface OpenCall {
  reservationId: string;
  promptBoundTokens: number;
  maxTokens: number;
  answerCount: number;
  prices: { prompt: bigint; completion: bigint; cacheRead: bigint };
  reservedNanoUsd: bigint;
}

function modelPrices(prices: { prompt: number; completion: number; cacheRead: number }): ModelPrices {
  return {
    promptUsdPerMillionTokens: prices.prompt / 1000,
    completionUsdPerMillionTokens: prices.completion / 1000,
    cacheReadUsdPerMillionTokens: prices.cacheRead / 1000,
  };
}

test('Σ charged ≤ cap under any schedule and any usage; an overshoot is charged its reservation and closes the episode', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 2_000_000_000 }),
      fc.array(operationArbitrary, { maxLength: 80 }),
      (capNanoUsd, operations) => {
        const meter = new EpisodeMeter(capNanoUsd / 1e9);
        assert.equal(meter.capNanoUsd, BigInt(capNanoUsd));
        const open: OpenCall[] = [];
        let chargedNanoUsd = 0n;
        let overshootSeen = false;

        for (const operation of operations) {
          if (operation.kind === 'reserve') {
            const answerCount = operation.n ?? 1;
            const result = meter.reserve({
              prices: modelPrices(operation.prices),
              promptBoundTokens: operation.promptBoundTokens,
              maxTokens: operation.maxTokens,
              n: operation.n,
            });
            if (overshootSeen) {
              assert.equal(result.ok, false, 'a closed episode refuses every call');
              if (!result.ok) assert.equal(result.reason, 'closed');
              continue;
            }
            if (!result.ok) {
              assert.equal(result.type, 'cap');
              continue;
            }
            const wanted = operation.maxTokens ?? defaultMaxTokens;
            // the 64-token floor is on what fits; a request may ask for fewer and get them
            assert.ok(result.maxTokens >= Math.min(minimumMaxTokens, wanted));
            assert.ok(result.maxTokens <= wanted);
            assert.equal(result.clamped, result.maxTokens < wanted);
            const prices = {
              prompt: BigInt(operation.prices.prompt),
              completion: BigInt(operation.prices.completion),
              cacheRead: BigInt(operation.prices.cacheRead),
            };
            // a prompt token is billed at the prompt or the cache-read price: the dearer one bounds both
            const promptBoundPrice = prices.cacheRead > prices.prompt ? prices.cacheRead : prices.prompt;
            const reservedNanoUsd =
              BigInt(operation.promptBoundTokens) * promptBoundPrice +
              BigInt(result.maxTokens) * prices.completion * BigInt(answerCount);
            open.push({
              reservationId: result.reservationId,
              promptBoundTokens: operation.promptBoundTokens,
              maxTokens: result.maxTokens,
              answerCount,
              prices,
              reservedNanoUsd,
            });
          } else if (open.length > 0) {
            const [call] = open.splice(operation.pick % open.length, 1);
            assert.ok(call);
            if (operation.kind === 'release') {
              meter.release(call.reservationId);
            } else {
              const usage = operation.usage;
              let sent: unknown;
              let failedAfterSend = false;
              if (usage.shape === 'within') {
                const promptTokens = Math.floor(usage.promptFraction * call.promptBoundTokens);
                sent = {
                  prompt_tokens: promptTokens,
                  completion_tokens: Math.floor(usage.completionFraction * call.maxTokens * call.answerCount),
                  prompt_tokens_details: { cached_tokens: Math.floor(usage.cachedFraction * promptTokens) },
                };
              } else if (usage.shape === 'failed-after-send') {
                failedAfterSend = true;
              } else if (usage.shape === 'invalid') {
                sent = { prompt_tokens: 'many', completion_tokens: -1 };
              } else if (usage.shape === 'overshoot') {
                sent = {
                  prompt_tokens: call.promptBoundTokens + usage.extraPromptTokens,
                  completion_tokens: call.maxTokens * call.answerCount,
                };
              } else if (usage.shape === 'arbitrary') {
                sent = {
                  prompt_tokens: usage.promptTokens,
                  completion_tokens: usage.completionTokens,
                  prompt_tokens_details: { cached_tokens: usage.cachedTokens },
                };
              }
              const settlement = meter.settle(call.reservationId, sent, { failedAfterSend });

              // the cost, worked independently of the meter
              let expectedNanoUsd = call.reservedNanoUsd;
              if (sent !== undefined && usage.shape !== 'invalid') {
                const fields = sent as {
                  prompt_tokens: number;
                  completion_tokens: number;
                  prompt_tokens_details?: { cached_tokens: number };
                };
                const prompt = BigInt(fields.prompt_tokens);
                const cachedReported = BigInt(fields.prompt_tokens_details?.cached_tokens ?? 0);
                const cached = cachedReported < prompt ? cachedReported : prompt;
                expectedNanoUsd =
                  (prompt - cached) * call.prices.prompt +
                  cached * call.prices.cacheRead +
                  BigInt(fields.completion_tokens) * call.prices.completion;
              }
              // charged the usage's cost, never more than the reservation: the excess is the upstream's
              const overshootNanoUsd = expectedNanoUsd - call.reservedNanoUsd;
              assert.equal(settlement.overshoot, overshootNanoUsd > 0n);
              if (overshootNanoUsd > 0n) expectedNanoUsd = call.reservedNanoUsd;
              assert.equal(settlement.costNanoUsd, expectedNanoUsd);
              assert.equal(settlement.overshootUsd, overshootNanoUsd > 0n ? Number(overshootNanoUsd) / 1e9 : 0);
              if (
                usage.shape === 'within' ||
                usage.shape === 'failed-after-send' ||
                usage.shape === 'missing' ||
                usage.shape === 'invalid'
              ) {
                assert.equal(settlement.overshoot, false, `${usage.shape} never overshoots`);
              }
              chargedNanoUsd += settlement.costNanoUsd;
              if (settlement.overshoot) overshootSeen = true;
            }
          }

          // the ledger after every step
          assert.equal(meter.spentNanoUsd, chargedNanoUsd);
          assert.equal(
            meter.reservedNanoUsd,
            open.reduce((sum, call) => sum + call.reservedNanoUsd, 0n),
          );
          assert.equal(meter.openReservationCount, open.length);
          assert.equal(meter.closed, overshootSeen);
          assert.ok(meter.spentNanoUsd + meter.reservedNanoUsd <= meter.capNanoUsd, 'spent + in flight within the cap');
          assert.ok(chargedNanoUsd <= meter.capNanoUsd, 'Σ charged ≤ cap');
          const budget = meter.budget();
          assert.ok(budget.remaining_usd >= 0);
        }
      },
    ),
    { numRuns: 400 },
  );
});
