// The worker's spend ledger, opened once at worker start: this host's files (<dataDir>/spend, the
// default for one process with both roles) or the shared ledger workflow (workers on several
// hosts). A sandbox worker then settles what a dead worker on this host left open, from its call
// logs, and damaged lines of the files are reported.
import type { Client } from '@temporalio/client';
import { log } from '../../common/log.ts';
import { spendDir } from '../../common/data-layout.ts';
import { SpendLedger } from './spend-ledger.ts';
import { WorkflowSpendLedger } from './workflow-spend-ledger.ts';
import { settleOrphanedAttempts } from './settle-orphaned-attempts.ts';
import type { SpendAccount } from './spend-account.ts';

export type SpendLedgerKind = 'file' | 'workflow';

export async function openWorkerSpendLedger(options: {
  submissionCeilingUsd: number;
  dailyCeilingUsd: number;
  kind?: SpendLedgerKind;
  dir?: string;
  /** The shared ledger's client and evaluation queue (kind `workflow`). */
  temporal?: { client: Client; taskQueue: string };
  /** Whether this process runs scenarios here (then it settles this host's orphans from their call logs). */
  sandboxHost?: boolean;
}): Promise<SpendAccount> {
  const ceilings = { submissionUsd: options.submissionCeilingUsd, dailyUsd: options.dailyCeilingUsd };
  let ledger: SpendAccount;
  if (options.kind === 'workflow') {
    if (!options.temporal) throw new Error('the shared spend ledger needs a Temporal client');
    ledger = new WorkflowSpendLedger(options.temporal.client, options.temporal.taskQueue, ceilings);
  } else {
    const files = await SpendLedger.open({ dir: options.dir ?? spendDir, ceilings });
    const stats = await files.readStats();
    if (stats.corruptLines > 0 || stats.tornTails > 0)
      log.warn('spend_ledger_damaged_lines', { dir: files.dir, ...stats });
    ledger = files;
  }
  log.info('spend_ledger_opened', { where: ledger.description, ceilings });
  if (options.sandboxHost !== false) {
    const orphans = await settleOrphanedAttempts(ledger);
    if (orphans.settled.length > 0) log.warn('spend_orphans_settled', { attempts: orphans.settled });
    if (orphans.leftReserved.length > 0)
      log.warn('spend_orphans_left_reserved', {
        attempts: orphans.leftReserved,
        reason: 'no model-call log; counted at the cap',
      });
  }
  return ledger;
}
