// The ledger's state, folded from its events: one record per attempt, and the totals the ceilings
// are checked against. Pure and synchronous. Folding is idempotent (an attempt is reserved once and
// closed once; a repeated line changes nothing), so re-reading lines already applied is harmless.
import type { SpendEvent } from './spend-events.ts';
import {
  ceilingRefusal,
  type AttemptRecord,
  type CeilingRefusal,
  type Ceilings,
  type SpendTotals,
} from '../../contracts/spend-ledger-state.ts';

export class SpendBook {
  private readonly attempts = new Map<string, AttemptRecord>();

  /** Applies one event; returns false when it changed nothing (a repeat, or a close after a close). */
  apply(event: SpendEvent): boolean {
    const known = this.attempts.get(event.attemptId);
    if (event.kind === 'reserve') {
      if (known) return false;
      this.attempts.set(event.attemptId, {
        attemptId: event.attemptId,
        submissionId: event.submissionId,
        scenario: event.scenario,
        day: event.day,
        reservedUsd: event.amountUsd,
        state: 'open',
        costUsd: 0,
        owner: event.owner,
        callLogFile: event.callLogFile,
      });
      return true;
    }
    if (known && known.state !== 'open') return false;
    // A close whose reserve line was lost (corrupt) still counts: every close line names its attempt.
    const record: AttemptRecord = known ?? {
      attemptId: event.attemptId,
      submissionId: event.submissionId,
      scenario: event.scenario,
      day: event.day,
      reservedUsd: 0,
      state: 'open',
      costUsd: 0,
    };
    if (event.kind === 'settle') {
      record.state = 'settled';
      record.costUsd = event.costUsd;
      record.source = event.source;
    } else {
      record.state = 'released';
    }
    this.attempts.set(event.attemptId, record);
    return true;
  }

  get(attemptId: string): AttemptRecord | undefined {
    const record = this.attempts.get(attemptId);
    return record && { ...record };
  }

  openAttempts(): AttemptRecord[] {
    return [...this.attempts.values()].filter((a) => a.state === 'open').map((a) => ({ ...a }));
  }

  totals(filter: { submissionId: string } | { day: string }): SpendTotals {
    const totals: SpendTotals = { settledUsd: 0, reservedUsd: 0, totalUsd: 0, attempts: 0, openAttempts: 0 };
    for (const attempt of this.attempts.values()) {
      if ('submissionId' in filter ? attempt.submissionId !== filter.submissionId : attempt.day !== filter.day)
        continue;
      totals.attempts += 1;
      if (attempt.state === 'settled') totals.settledUsd += attempt.costUsd;
      else if (attempt.state === 'open') {
        totals.reservedUsd += attempt.reservedUsd;
        totals.openAttempts += 1;
      }
    }
    totals.totalUsd = totals.settledUsd + totals.reservedUsd;
    return totals;
  }

  /** Why a new reservation of amountUsd would pass a ceiling, or undefined when it fits both. */
  refusal(
    request: { submissionId: string; day: string; amountUsd: number },
    ceilings: Ceilings,
  ): CeilingRefusal | undefined {
    return ceilingRefusal(request, ceilings, (filter) => this.totals(filter));
  }
}

const dollars = (usd: number) => `$${usd.toFixed(4)}`;

/** The refusal as a sentence an operator can act on: which ceiling, spent, reserved, cap. */
export function describeRefusal(refusal: CeilingRefusal): string {
  const which =
    refusal.ceiling === 'submission'
      ? `per-submission spend ceiling of ${dollars(refusal.ceilingUsd)} (submission ${refusal.scope})`
      : `daily spend ceiling of ${dollars(refusal.ceilingUsd)} (UTC day ${refusal.scope})`;
  const setting = refusal.ceiling === 'submission' ? 'TRL_SUBMISSION_CEILING_USD' : 'TRL_DAILY_CEILING_USD';
  return `${which} reached: ${dollars(refusal.spentUsd)} spent + ${dollars(refusal.reservedUsd)} reserved by open attempts + ${dollars(refusal.capUsd)} for this attempt (the scenario cap) would pass it; paid work stopped (${setting})`;
}
