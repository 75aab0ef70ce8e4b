// The lines of the spend ledger: one JSON object per event, each one self-contained (it names its
// attempt, submission and UTC day), so a corrupt line loses that event and nothing else.
import { z } from 'zod';

const usd = z.number().nonnegative().finite();
const utcDayPattern = /^\d{4}-\d{2}-\d{2}$/;

const eventBase = {
  /** When the line was written (ISO 8601). */
  time: z.string().min(1),
  /** One attempt of one activity: `${workflowId}/${runId}/${activityId}/${attempt}`. */
  attemptId: z.string().min(1),
  submissionId: z.string().min(1),
  scenario: z.string(),
  /** The UTC day the attempt is counted against: the day of its reservation. */
  day: z.string().regex(utcDayPattern),
};

export const reserveEventSchema = z.object({
  kind: z.literal('reserve'),
  ...eventBase,
  /** The scenario cap: the most the attempt's gateway can spend. */
  amountUsd: usd,
  /** The worker process that runs the attempt; a later worker settles it if that process died. */
  owner: z.object({ host: z.string(), pid: z.number().int() }),
  /** The attempt's model-call log, from which an orphaned reservation is settled. */
  callLogFile: z.string().optional(),
});

export const settleEventSchema = z.object({
  kind: z.literal('settle'),
  ...eventBase,
  costUsd: usd,
  /** `gateway`: the attempt's own budget ledger as it ended; `call-log`: recovered after a crash. */
  source: z.enum(['gateway', 'call-log']),
  calls: z.number().int().nonnegative().optional(),
});

export const releaseEventSchema = z.object({
  kind: z.literal('release'),
  ...eventBase,
  reason: z.string(),
});

export const spendEventSchema = z.discriminatedUnion('kind', [
  reserveEventSchema,
  settleEventSchema,
  releaseEventSchema,
]);
export type SpendEvent = z.infer<typeof spendEventSchema>;
export type ReserveEvent = z.infer<typeof reserveEventSchema>;
export type SettleEvent = z.infer<typeof settleEventSchema>;
export type ReleaseEvent = z.infer<typeof releaseEventSchema>;

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export interface ParsedLines {
  events: SpendEvent[];
  /** Complete lines that are not a valid event (bad JSON, wrong shape): skipped, counted. */
  corruptLines: number;
}

/** Parses complete lines (the caller keeps an unterminated tail back). Blank lines are ignored. */
export function parseSpendLines(text: string): ParsedLines {
  const events: SpendEvent[] = [];
  let corruptLines = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      corruptLines += 1;
      continue;
    }
    const parsed = spendEventSchema.safeParse(value);
    if (parsed.success) events.push(parsed.data);
    else corruptLines += 1;
  }
  return { events, corruptLines };
}
