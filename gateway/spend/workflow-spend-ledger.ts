// The spend ledger kept by the shared ledger workflow (workflows/spend-ledger.ts), for sandbox
// workers on several hosts: every worker of one evaluation queue reserves, settles and releases
// through updates of the same workflow, which the first reservation starts (update-with-start, so
// no worker has to create it first). The ceilings are this worker's settings, sent with each
// reservation.
import { WithStartWorkflowOperation, WorkflowNotFoundError, type Client } from '@temporalio/client';
import {
  emptySpendLedgerState,
  type AttemptRecord,
  type CloseSpendRequest,
  type Ceilings,
  type ReserveOutcome,
  type SpendTotals,
  type SpendTotalsFilter,
} from '../../contracts/spend-ledger-state.ts';
import {
  closeSpendUpdate,
  openSpendQuery,
  reserveSpendUpdate,
  spendTotalsQuery,
} from '../../contracts/spend-ledger-signals.ts';
import { spendLedgerWorkflowId } from '../../contracts/temporal-names.ts';
import type { ReserveRequest, SpendAccount } from './spend-account.ts';

const emptyTotals: SpendTotals = { settledUsd: 0, reservedUsd: 0, totalUsd: 0, attempts: 0, openAttempts: 0 };

export class WorkflowSpendLedger implements SpendAccount {
  private readonly workflowId: string;

  constructor(
    private readonly client: Client,
    private readonly taskQueue: string,
    readonly ceilings: Ceilings,
  ) {
    this.workflowId = spendLedgerWorkflowId(taskQueue);
  }

  get description(): string {
    return `workflow ${this.workflowId}`;
  }

  reserve(request: ReserveRequest): Promise<ReserveOutcome> {
    return this.client.workflow.executeUpdateWithStart(reserveSpendUpdate, {
      args: [{ ...request, ceilings: this.ceilings }],
      startWorkflowOperation: new WithStartWorkflowOperation('spendLedger', {
        workflowId: this.workflowId,
        taskQueue: this.taskQueue,
        args: [emptySpendLedgerState(), {}],
        workflowIdConflictPolicy: 'USE_EXISTING',
        staticSummary: 'spend ledger · reservations, settlements and ceilings of every sandbox host',
      }),
    });
  }

  settle(
    attemptId: string,
    costUsd: number,
    details: { source: 'gateway' | 'call-log'; calls?: number } = { source: 'gateway' },
  ): Promise<void> {
    return this.close({
      kind: 'settle',
      attemptId,
      costUsd: Math.max(0, costUsd),
      source: details.source,
      ...(details.calls === undefined ? {} : { calls: details.calls }),
    });
  }

  release(attemptId: string, reason: string): Promise<void> {
    return this.close({ kind: 'release', attemptId, reason: reason.slice(0, 1000) });
  }

  private async close(request: CloseSpendRequest): Promise<void> {
    const outcome = await this.client.workflow
      .getHandle(this.workflowId)
      .executeUpdate(closeSpendUpdate, { args: [request] });
    if (outcome === 'unknown') throw new Error(`spend ledger: attempt ${request.attemptId} was never reserved`);
  }

  /** Before the first reservation the workflow does not exist yet: nothing is spent. */
  async totals(filter: SpendTotalsFilter): Promise<SpendTotals> {
    if (!(await this.exists())) return { ...emptyTotals };
    return this.client.workflow.getHandle(this.workflowId).query(spendTotalsQuery, filter);
  }

  async openAttempts(): Promise<AttemptRecord[]> {
    if (!(await this.exists())) return [];
    return this.client.workflow.getHandle(this.workflowId).query(openSpendQuery);
  }

  private async exists(): Promise<boolean> {
    try {
      const description = await this.client.workflow.getHandle(this.workflowId).describe();
      return description.status.name === 'RUNNING';
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return false;
      throw error;
    }
  }
}
