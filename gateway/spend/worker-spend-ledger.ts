// The worker host's spend ledger: opened once at worker start in <dataDir>/spend, with what a dead
// worker on this host left open settled from its call logs, and damaged lines reported.
import { log } from '../../common/log.ts';
import { spendDir } from '../../common/data-layout.ts';
import { SpendLedger } from './spend-ledger.ts';
import { settleOrphanedAttempts } from './settle-orphaned-attempts.ts';

export async function openWorkerSpendLedger(options: { submissionCeilingUsd: number; dailyCeilingUsd: number; dir?: string }): Promise<SpendLedger> {
  const ledger = await SpendLedger.open({ dir: options.dir ?? spendDir, ceilings: { submissionUsd: options.submissionCeilingUsd, dailyUsd: options.dailyCeilingUsd } });
  const orphans = await settleOrphanedAttempts(ledger);
  if (orphans.settled.length > 0) log.warn('spend_orphans_settled', { attempts: orphans.settled });
  if (orphans.leftReserved.length > 0) log.warn('spend_orphans_left_reserved', { attempts: orphans.leftReserved, reason: 'no model-call log; counted at the cap' });
  const stats = await ledger.readStats();
  if (stats.corruptLines > 0 || stats.tornTails > 0) log.warn('spend_ledger_damaged_lines', { dir: ledger.dir, ...stats });
  return ledger;
}
