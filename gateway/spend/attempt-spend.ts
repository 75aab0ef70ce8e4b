// The spend ledger as one scenario attempt sees it: reserve the scenario cap before paid work
// starts (or refuse with a non-retryable `spend_ceiling_reached`), then close the reservation
// exactly once when the attempt ends — settled with what its gateway spent, or released when its
// paid work never started. Closing never throws: if the ledger cannot be written the reservation
// stays open, counted at the cap (conservative), and the failure is logged.
import { ApplicationFailure } from '@temporalio/common';
import { log } from '../../common/log.ts';
import { failureTypes } from '../../contracts/failure-types.ts';
import type { BudgetLedger } from '../budget-ledger.ts';
import { describeRefusal } from './spend-book.ts';
import type { SpendAccount } from './spend-account.ts';

/** The failure type of a refused reservation (contracts/failure-types.ts owns it). */
export const spendCeilingReachedType = failureTypes.spendCeilingReached;

export interface ActivityAttempt {
  workflowId: string;
  runId: string;
  activityId: string;
  attempt: number;
}

export function attemptIdOf(attempt: ActivityAttempt): string {
  return `${attempt.workflowId}/${attempt.runId}/${attempt.activityId}/${attempt.attempt}`;
}

/** What an attempt's gateway spent, counting calls still holding a reservation as spent in full. */
export function gatewaySpendUsd(budget: Pick<BudgetLedger, 'spentUsd' | 'reservedUsd'>): number {
  return budget.spentUsd + budget.reservedUsd;
}

export class AttemptSpend {
  private closed = false;

  constructor(
    private readonly ledger: SpendAccount,
    readonly attemptId: string,
  ) {}

  settle(costUsd: number): Promise<void> {
    return this.closeOnce('settle', () => this.ledger.settle(this.attemptId, costUsd, { source: 'gateway' }));
  }

  release(reason: string): Promise<void> {
    return this.closeOnce('release', () => this.ledger.release(this.attemptId, reason));
  }

  private async closeOnce(kind: string, write: () => Promise<void>): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await write();
    } catch (error) {
      log.error('spend_ledger_close_failed', {
        attemptId: this.attemptId,
        kind,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}

export async function reserveAttemptSpend(
  ledger: SpendAccount,
  request: {
    attempt: ActivityAttempt;
    submissionId: string;
    scenario: string;
    capUsd: number;
    owner: { host: string; pid: number };
    callLogFile?: string;
  },
): Promise<AttemptSpend> {
  const attemptId = attemptIdOf(request.attempt);
  const outcome = await ledger.reserve({
    attemptId,
    submissionId: request.submissionId,
    scenario: request.scenario,
    amountUsd: request.capUsd,
    owner: request.owner,
    callLogFile: request.callLogFile,
  });
  if (!outcome.ok) {
    throw ApplicationFailure.create({
      type: spendCeilingReachedType,
      message: describeRefusal(outcome.refusal),
      nonRetryable: true,
      details: [outcome.refusal],
    });
  }
  return new AttemptSpend(ledger, attemptId);
}
