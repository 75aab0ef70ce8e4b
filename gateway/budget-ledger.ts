// The scenario's money, as a ledger of reservations and settlements. Pure and synchronous, so
// reserve-then-call is atomic with respect to other calls: parallel calls can never together
// reserve more than the cap.
export interface Reservation {
  readonly id: number;
  readonly amountUsd: number;
}

export interface Settlement {
  chargedUsd: number;
  /** Real cost above what was reserved (an upstream counting more tokens than we did). */
  overrunUsd: number;
}

export class BudgetLedger {
  private spent = 0;
  private reserved = 0;
  private nextId = 1;
  private readonly open = new Map<number, number>();

  constructor(readonly capUsd: number) {
    if (!(capUsd >= 0)) throw new Error(`budget cap must be a non-negative number of USD, got ${capUsd}`);
  }

  get spentUsd(): number {
    return this.spent;
  }

  get reservedUsd(): number {
    return this.reserved;
  }

  get remainingUsd(): number {
    return Math.max(0, this.capUsd - this.spent - this.reserved);
  }

  /** Holds amountUsd for one call, or returns undefined when the remaining budget cannot cover it. */
  reserve(amountUsd: number): Reservation | undefined {
    if (!(amountUsd >= 0) || amountUsd > this.remainingUsd + 1e-12) return undefined;
    const id = this.nextId++;
    this.open.set(id, amountUsd);
    this.reserved += amountUsd;
    return { id, amountUsd };
  }

  /** Replaces a reservation by the call's real cost. */
  settle(reservation: Reservation, actualUsd: number): Settlement {
    const held = this.open.get(reservation.id);
    if (held === undefined) throw new Error(`reservation ${reservation.id} is not open`);
    this.open.delete(reservation.id);
    this.reserved -= held;
    if (this.open.size === 0) this.reserved = 0; // no float drift once nothing is held
    const charged = Math.max(0, actualUsd);
    this.spent += charged;
    return { chargedUsd: charged, overrunUsd: Math.max(0, charged - held) };
  }

  view(): { capUsd: number; spentUsd: number; remainingUsd: number } {
    return { capUsd: this.capUsd, spentUsd: this.spent, remainingUsd: this.remainingUsd };
  }
}
