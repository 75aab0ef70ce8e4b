// One episode's money: every call reserves a true upper bound of what it can be billed
// (prompt-bound.ts) before it is sent, against what remains after every call in flight; it is
// settled from usage afterwards by the live Season 2 rule. A settlement above its reservation is
// the upstream billing beyond its tokenizer's bound: the excess is recorded as the upstream's,
// never charged, and the episode closes. So Σ charged ≤ Σ reservations ≤ cap under any schedule.
// Synchronous and in memory, so reserve-then-send is atomic with respect to parallel calls.
import { z } from 'zod';
import { nanoUsdFromUsd, nanoUsdPerTokenFromUsdPerMillionTokens, roundedUsd, usdFromNanoUsd } from './money.ts';
import { defaultMaxTokens } from './request-limits.ts';

// Below this many completion tokens a call is refused: an answer that short is useless.
export const minimumMaxTokens = 64;

export interface ModelPrices {
  promptUsdPerMillionTokens: number;
  completionUsdPerMillionTokens: number;
  cacheReadUsdPerMillionTokens: number;
}

export interface ReserveRequest {
  prices: ModelPrices;
  /** The prompt's token bound, from promptBoundTokens(body) (prompt-bound.ts). */
  promptBoundTokens: number;
  /** Completion tokens per answer; absent means 8192, Infinity means as many as fit. */
  maxTokens?: number;
  /** Answers asked for (`n`); each is reserved at the full length. */
  n?: number;
}

export type ReserveResult =
  | { ok: true; reservationId: string; maxTokens: number; clamped: boolean; reservedUsd: number }
  | { ok: false; type: 'cap'; reason: RefusalReason; message: string };

export type RefusalReason = 'closed' | 'prompt-exceeds-remaining' | 'below-minimum-tokens';

/** What the charge was computed from. */
export type SettlementBasis = 'usage' | 'failed-after-send' | 'missing-usage' | 'invalid-usage';

export interface Settlement {
  /** What is charged: the usage's cost, at most the reservation. */
  costUsd: number;
  /** Exact, for ledgers that add settlements up. */
  costNanoUsd: bigint;
  basis: SettlementBasis;
  /** The upstream billed more than the reservation (beyond the bound): the episode is now closed. */
  overshoot: boolean;
  /** The usage's cost above the reservation: the upstream's, recorded and never charged. */
  overshootUsd: number;
}

export interface Budget {
  cap_usd: number;
  spent_usd: number;
  reserved_usd: number;
  remaining_usd: number;
}

const tokenCount = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

// An OpenAI-style usage object; only the fields that are billed.
export const usageSchema = z.object({
  prompt_tokens: tokenCount,
  completion_tokens: tokenCount,
  prompt_tokens_details: z.object({ cached_tokens: tokenCount.nullish() }).nullish(),
});

export type Usage = z.infer<typeof usageSchema>;

interface ExactPrices {
  promptNanoUsdPerToken: bigint;
  completionNanoUsdPerToken: bigint;
  cacheReadNanoUsdPerToken: bigint;
}

interface OpenReservation {
  prices: ExactPrices;
  reservedNanoUsd: bigint;
}

function exactPrices(prices: ModelPrices): ExactPrices {
  const completionNanoUsdPerToken = nanoUsdPerTokenFromUsdPerMillionTokens(
    prices.completionUsdPerMillionTokens,
    'completion price',
  );
  // A free completion would make the reservation unbounded by money.
  if (completionNanoUsdPerToken === 0n) throw new RangeError('completion price must be above $0 per million tokens');
  return {
    promptNanoUsdPerToken: nanoUsdPerTokenFromUsdPerMillionTokens(prices.promptUsdPerMillionTokens, 'prompt price'),
    completionNanoUsdPerToken,
    cacheReadNanoUsdPerToken: nanoUsdPerTokenFromUsdPerMillionTokens(
      prices.cacheReadUsdPerMillionTokens,
      'cache-read price',
    ),
  };
}

function formatUsd(nanoUsd: bigint): string {
  return `$${roundedUsd(nanoUsd < 0n ? 0n : nanoUsd, 6).toFixed(6)}`;
}

/** The cost a usage report bills: uncached prompt, cached prompt at the cache-read price, completion. */
export function costNanoUsdOfUsage(prices: ExactPrices, usage: Usage): bigint {
  const promptTokens = BigInt(usage.prompt_tokens);
  // An upstream that reports more cached than prompt tokens must not earn a discount below zero.
  const cachedReported = BigInt(usage.prompt_tokens_details?.cached_tokens ?? 0);
  const cachedTokens = cachedReported < promptTokens ? cachedReported : promptTokens;
  return (
    (promptTokens - cachedTokens) * prices.promptNanoUsdPerToken +
    cachedTokens * prices.cacheReadNanoUsdPerToken +
    BigInt(usage.completion_tokens) * prices.completionNanoUsdPerToken
  );
}

export class EpisodeMeter {
  readonly capNanoUsd: bigint;
  private spent = 0n;
  private reserved = 0n;
  private nextReservationNumber = 1;
  private readonly open = new Map<string, OpenReservation>();
  private closedBecause: string | undefined;

  constructor(capUsd: number) {
    this.capNanoUsd = nanoUsdFromUsd(capUsd, 'episode cap (USD)');
  }

  get spentNanoUsd(): bigint {
    return this.spent;
  }

  get reservedNanoUsd(): bigint {
    return this.reserved;
  }

  /** cap − spent − reserved; negative only after an overshoot. */
  get remainingNanoUsd(): bigint {
    return this.capNanoUsd - this.spent - this.reserved;
  }

  get closed(): boolean {
    return this.closedBecause !== undefined;
  }

  get closedReason(): string | undefined {
    return this.closedBecause;
  }

  get openReservationCount(): number {
    return this.open.size;
  }

  reserve(request: ReserveRequest): ReserveResult {
    const prices = exactPrices(request.prices);
    const estimate = request.promptBoundTokens;
    if (!Number.isSafeInteger(estimate) || estimate < 0) {
      throw new RangeError(`promptBoundTokens must be a whole number ≥ 0, got ${estimate}`);
    }
    const answerCount = request.n ?? 1;
    if (!Number.isSafeInteger(answerCount) || answerCount < 1) {
      throw new RangeError(`n must be a whole number ≥ 1, got ${answerCount}`);
    }
    const wantedMaxTokens = request.maxTokens ?? defaultMaxTokens;
    if (!(wantedMaxTokens >= 1)) throw new RangeError(`maxTokens must be ≥ 1, got ${wantedMaxTokens}`);

    if (this.closedBecause !== undefined) {
      return { ok: false, type: 'cap', reason: 'closed', message: this.closedBecause };
    }

    const remaining = this.remainingNanoUsd;
    // Each prompt token is billed at the prompt or the cache-read price: the dearer of the two bounds
    // both (a table, e.g. an operator's override, may price cache reads above fresh prompt tokens).
    const promptBoundPrice =
      prices.cacheReadNanoUsdPerToken > prices.promptNanoUsdPerToken
        ? prices.cacheReadNanoUsdPerToken
        : prices.promptNanoUsdPerToken;
    const promptNanoUsd = BigInt(estimate) * promptBoundPrice;
    if (promptNanoUsd >= remaining) {
      return {
        ok: false,
        type: 'cap',
        reason: 'prompt-exceeds-remaining',
        message:
          `episode cap ${formatUsd(this.capNanoUsd)}: this call cannot fit — its prompt alone is reserved at ` +
          `${formatUsd(promptNanoUsd)} (at most ${estimate} tokens) and ${formatUsd(remaining)} remains`,
      };
    }
    // Per answer token, n answers are paid for at once.
    const nanoUsdPerAnswerToken = prices.completionNanoUsdPerToken * BigInt(answerCount);
    const tokensThatFit = (remaining - promptNanoUsd) / nanoUsdPerAnswerToken;
    if (tokensThatFit < BigInt(minimumMaxTokens)) {
      return {
        ok: false,
        type: 'cap',
        reason: 'below-minimum-tokens',
        message:
          `episode cap ${formatUsd(this.capNanoUsd)}: this call cannot fit — after its prompt, ${formatUsd(remaining)} ` +
          `remaining pays for ${tokensThatFit} completion tokens${answerCount > 1 ? ` per answer (n = ${answerCount})` : ''}, ` +
          `fewer than the minimum ${minimumMaxTokens}`,
      };
    }
    const wanted = Number.isFinite(wantedMaxTokens) ? BigInt(Math.floor(wantedMaxTokens)) : undefined;
    const clamped = wanted === undefined || tokensThatFit < wanted;
    const maxTokens = clamped ? tokensThatFit : wanted;
    const reservedNanoUsd = promptNanoUsd + maxTokens * nanoUsdPerAnswerToken;

    const reservationId = `reservation-${this.nextReservationNumber++}`;
    this.open.set(reservationId, { prices, reservedNanoUsd });
    this.reserved += reservedNanoUsd;
    return {
      ok: true,
      reservationId,
      maxTokens: Number(maxTokens),
      clamped,
      reservedUsd: usdFromNanoUsd(reservedNanoUsd),
    };
  }

  /**
   * Books a sent call. With valid usage the cost is computed from it; without (the upstream failed
   * or timed out after the request left, or answered without usage) the whole reservation is
   * charged, since the upstream may have billed up to it. A cost above the reservation (the
   * upstream billed beyond the bound) is charged at the reservation, the excess is returned as
   * overshoot (the upstream's fault, never charged) and the episode closes.
   */
  settle(reservationId: string, usage: unknown, options: { failedAfterSend: boolean }): Settlement {
    const reservation = this.take(reservationId);
    let basis: SettlementBasis;
    let costNanoUsd: bigint;
    if (usage === undefined || usage === null) {
      basis = options.failedAfterSend ? 'failed-after-send' : 'missing-usage';
      costNanoUsd = reservation.reservedNanoUsd;
    } else {
      const parsed = usageSchema.safeParse(usage);
      if (parsed.success) {
        basis = 'usage';
        costNanoUsd = costNanoUsdOfUsage(reservation.prices, parsed.data);
      } else {
        basis = 'invalid-usage';
        costNanoUsd = reservation.reservedNanoUsd;
      }
    }
    const overshootNanoUsd = costNanoUsd - reservation.reservedNanoUsd;
    const overshoot = overshootNanoUsd > 0n;
    const chargedNanoUsd = overshoot ? reservation.reservedNanoUsd : costNanoUsd;
    this.spent += chargedNanoUsd;
    if (overshoot && this.closedBecause === undefined) {
      this.closedBecause =
        `episode closed: the upstream billed ${reservationId} ${formatUsd(costNanoUsd)}, more than the ` +
        `${formatUsd(reservation.reservedNanoUsd)} bound reserved for it (the upstream's fault; the excess is not ` +
        `charged); no further calls are admitted in this episode`;
    }
    return {
      costUsd: usdFromNanoUsd(chargedNanoUsd),
      costNanoUsd: chargedNanoUsd,
      basis,
      overshoot,
      overshootUsd: overshoot ? usdFromNanoUsd(overshootNanoUsd) : 0,
    };
  }

  /** Frees the reservation of a call that was never sent upstream; nothing is charged. */
  release(reservationId: string): void {
    this.take(reservationId);
  }

  /** The `/v1/budget` body; remaining never shows below zero. */
  budget(): Budget {
    const remaining = this.remainingNanoUsd;
    return {
      cap_usd: roundedUsd(this.capNanoUsd),
      spent_usd: roundedUsd(this.spent),
      reserved_usd: roundedUsd(this.reserved),
      remaining_usd: roundedUsd(remaining > 0n ? remaining : 0n),
    };
  }

  /** The `x-trajrl-budget-remaining-usd` header value: six decimals, as the live gateway sends it. */
  remainingUsdHeader(): string {
    return this.budget().remaining_usd.toFixed(6);
  }

  private take(reservationId: string): OpenReservation {
    const reservation = this.open.get(reservationId);
    if (reservation === undefined) {
      throw new Error(`${reservationId} is not an open reservation (already settled or released, or never made)`);
    }
    this.open.delete(reservationId);
    this.reserved -= reservation.reservedNanoUsd;
    return reservation;
  }
}
