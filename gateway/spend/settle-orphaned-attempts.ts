// At worker start: attempts reserved by a worker process on this host that has since died (a
// SIGKILL, a crash) are settled from their model-call logs. An attempt whose owner may be alive
// (this process, another live worker, another host) or whose call log cannot be found keeps its
// reservation, counted at the cap: conservative. Calls in flight at the moment of death have a
// start row and no end row in the call log and are counted at their reservation.
import os from 'node:os';
import { processAlive } from '../../common/process-alive.ts';
import type { AttemptRecord } from '../../contracts/spend-ledger-state.ts';
import type { SpendAccount } from './spend-account.ts';
import { readCallLogCost } from './call-log-cost.ts';

export interface OrphanReport {
  settled: { attemptId: string; costUsd: number; calls: number }[];
  /** Orphans of dead owners left reserved at the cap because their call log is missing. */
  leftReserved: string[];
}

export function ownerIsDead(owner: AttemptRecord['owner'], self = { host: os.hostname(), pid: process.pid }): boolean {
  if (!owner || owner.host !== self.host || owner.pid === self.pid) return false;
  return !(Number.isInteger(owner.pid) && owner.pid > 0 && processAlive(owner.pid));
}

export async function settleOrphanedAttempts(
  ledger: SpendAccount,
  isDead: (owner: AttemptRecord['owner']) => boolean = (owner) => ownerIsDead(owner),
): Promise<OrphanReport> {
  const report: OrphanReport = { settled: [], leftReserved: [] };
  for (const attempt of await ledger.openAttempts()) {
    if (!isDead(attempt.owner)) continue;
    const cost = attempt.callLogFile ? await readCallLogCost(attempt.callLogFile) : undefined;
    if (!cost) {
      report.leftReserved.push(attempt.attemptId);
      continue;
    }
    await ledger.settle(attempt.attemptId, cost.costUsd, { source: 'call-log', calls: cost.calls });
    report.settled.push({ attemptId: attempt.attemptId, costUsd: cost.costUsd, calls: cost.calls });
  }
  return report;
}
