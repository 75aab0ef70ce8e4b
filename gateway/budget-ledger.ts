// A scenario's money in dollars, as the rest of the worker reads it: a read-only view of the
// episode meter (gateway/meter/episode-meter.ts), which owns the rule and the exact amounts.
import { usdFromNanoUsd } from './meter/money.ts';
import type { EpisodeMeter } from './meter/episode-meter.ts';

export interface BudgetView {
  capUsd: number;
  spentUsd: number;
  remainingUsd: number;
}

export class BudgetLedger {
  constructor(private readonly meter: EpisodeMeter) {}

  get capUsd(): number {
    return usdFromNanoUsd(this.meter.capNanoUsd);
  }

  get spentUsd(): number {
    return usdFromNanoUsd(this.meter.spentNanoUsd);
  }

  /** Held by calls in flight. */
  get reservedUsd(): number {
    return usdFromNanoUsd(this.meter.reservedNanoUsd);
  }

  /** cap − spent − reserved, never below 0. */
  get remainingUsd(): number {
    const remaining = this.meter.remainingNanoUsd;
    return remaining > 0n ? usdFromNanoUsd(remaining) : 0;
  }

  view(): BudgetView {
    return { capUsd: this.capUsd, spentUsd: this.spentUsd, remainingUsd: this.remainingUsd };
  }
}
