// What an attempt spent according to its model-call log (gateway/call-log.ts). Used to settle an
// attempt whose worker died before settling it. A call's `end` row carries its cost; a call with a
// `start` row and no `end` row was in flight when the worker stopped and is counted at its
// reservation (the upstream may have billed up to it). Refused rows cost nothing. Rows of the
// older one-row-per-call format (no `phase`) count their costUsd. Torn or corrupt lines are skipped.
import { readFile } from 'node:fs/promises';

export interface CallLogCost {
  costUsd: number;
  /** Calls ended, refused or left in flight. */
  calls: number;
  /** Of those, calls started and never ended, counted at their reservation. */
  unfinishedCalls: number;
  corruptLines: number;
}

function amount(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new Error('not an amount');
  return value;
}

/** The summed cost of the log's calls, or undefined when the log does not exist. */
export async function readCallLogCost(file: string): Promise<CallLogCost | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const result: CallLogCost = { costUsd: 0, calls: 0, unfinishedCalls: 0, corruptLines: 0 };
  const openReservations = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const row = JSON.parse(line) as { phase?: unknown; callId?: unknown; costUsd?: unknown; reservedUsd?: unknown };
      if (row.phase === 'start') {
        if (typeof row.callId !== 'string') throw new Error('no callId');
        openReservations.set(row.callId, amount(row.reservedUsd));
        continue;
      }
      const cost = amount(row.costUsd);
      if (row.phase === 'end' && typeof row.callId === 'string') openReservations.delete(row.callId);
      result.costUsd += cost;
      result.calls += 1;
    } catch {
      result.corruptLines += 1;
    }
  }
  for (const reserved of openReservations.values()) {
    result.costUsd += reserved;
    result.calls += 1;
    result.unfinishedCalls += 1;
  }
  return result;
}
