// What an attempt and the aggregation need from the money ledger, whichever keeps it: the host's
// files (spend-ledger.ts, one host) or the shared ledger workflow (workflow-spend-ledger.ts, many).
import type {
  AttemptRecord,
  Ceilings,
  ReserveOutcome,
  SpendTotals,
  SpendTotalsFilter,
} from '../../contracts/spend-ledger-state.ts';

export interface ReserveRequest {
  attemptId: string;
  submissionId: string;
  scenario: string;
  amountUsd: number;
  owner: { host: string; pid: number };
  callLogFile?: string;
}

export interface SpendAccount {
  /** Where it is kept, for the operator's log lines. */
  readonly description: string;
  readonly ceilings: Ceilings;
  /** Reserves amountUsd for one attempt, or refuses when either ceiling would be passed. Idempotent per open attempt.
   * */
  reserve(request: ReserveRequest): Promise<ReserveOutcome>;
  /** Closes an open attempt with its real cost. A second close of the same attempt is ignored. */
  settle(
    attemptId: string,
    costUsd: number,
    details?: { source: 'gateway' | 'call-log'; calls?: number },
  ): Promise<void>;
  /** Closes an open attempt that spent nothing (its paid work never started). */
  release(attemptId: string, reason: string): Promise<void>;
  totals(filter: SpendTotalsFilter): Promise<SpendTotals>;
  openAttempts(): Promise<AttemptRecord[]>;
}
