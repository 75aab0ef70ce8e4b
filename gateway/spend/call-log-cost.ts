// What an attempt spent according to its model-call log (gateway/call-log.ts writes one line per
// call when the call ends). Used to settle an attempt whose worker died before settling it. Torn
// or corrupt lines are skipped; a call still in flight when the worker died has no line.
import { readFile } from 'node:fs/promises';

export interface CallLogCost {
  costUsd: number;
  calls: number;
  corruptLines: number;
}

/** The summed costUsd of the log's lines, or undefined when the log does not exist. */
export async function readCallLogCost(file: string): Promise<CallLogCost | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const result: CallLogCost = { costUsd: 0, calls: 0, corruptLines: 0 };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const entry = JSON.parse(line) as { costUsd?: unknown };
      if (typeof entry.costUsd !== 'number' || !Number.isFinite(entry.costUsd) || entry.costUsd < 0) throw new Error('no costUsd');
      result.costUsd += entry.costUsd;
      result.calls += 1;
    } catch {
      result.corruptLines += 1;
    }
  }
  return result;
}
