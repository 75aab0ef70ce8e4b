// The shared spend ledger's state, for sandbox workers on several hosts that spend for one
// submission at once. A long-lived workflow holds it (workflows/spend-ledger.ts) and every
// reservation is an update: the check against the ceilings and the record of the reservation are
// one step of one history, so two hosts can never both fit under the same remaining room.
//
// Pure and plain JSON (it crosses continue-as-new), and bounded whatever the traffic:
// - open reservations are one per running scenario attempt (hosts × slots); one left open by a lost
//   host is closed at its full reservation once its day leaves the window (conservative);
// - settled money is folded into per-day and per-submission sums; only the most recent closes are
//   kept by id (so a repeated close is recognised), the last `daysKept` days, and the
//   `submissionsKept` submissions touched most recently within that window. A submission older
//   than that starts a fresh per-submission sum; the daily ceiling still holds.
import { z } from 'zod';

export interface Ceilings {
  submissionUsd: number;
  dailyUsd: number;
}

export interface CeilingRefusal {
  ceiling: 'submission' | 'daily';
  /** The submission id or the UTC day the ceiling applies to. */
  scope: string;
  ceilingUsd: number;
  spentUsd: number;
  reservedUsd: number;
  /** The amount asked for: the scenario cap. */
  capUsd: number;
}

export interface SpendTotals {
  /** Settled costs of closed attempts. */
  settledUsd: number;
  /** Reservations of attempts still open (running, or crashed and not yet settled), at the cap. */
  reservedUsd: number;
  /** settledUsd + reservedUsd: what a ceiling is checked against. */
  totalUsd: number;
  attempts: number;
  openAttempts: number;
}

export interface AttemptOwner {
  host: string;
  pid: number;
}

export interface AttemptRecord {
  attemptId: string;
  submissionId: string;
  scenario: string;
  day: string;
  /** What the attempt holds while open (the scenario cap); 0 for an attempt known only by its close. */
  reservedUsd: number;
  state: 'open' | 'settled' | 'released';
  costUsd: number;
  source?: 'gateway' | 'call-log' | 'expired';
  owner?: AttemptOwner;
  callLogFile?: string;
}

export type ReserveOutcome = { ok: true; day: string } | { ok: false; refusal: CeilingRefusal };

const usd = z.number().nonnegative().finite();
const id = z.string().min(1).max(512);

/** A reservation as a sandbox worker asks for it; the ceilings are the asking worker's settings. */
export const reserveSpendRequestSchema = z.object({
  attemptId: id,
  submissionId: id,
  scenario: z.string().max(256),
  amountUsd: usd,
  owner: z.object({ host: z.string().max(256), pid: z.number().int() }),
  callLogFile: z.string().max(4096).optional(),
  ceilings: z.object({ submissionUsd: usd, dailyUsd: usd }),
});
export type ReserveSpendRequest = z.infer<typeof reserveSpendRequestSchema>;

export const closeSpendRequestSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('settle'),
    attemptId: id,
    costUsd: usd,
    source: z.enum(['gateway', 'call-log']),
    calls: z.number().int().nonnegative().optional(),
  }),
  z.object({ kind: z.literal('release'), attemptId: id, reason: z.string().max(1000) }),
]);
export type CloseSpendRequest = z.infer<typeof closeSpendRequestSchema>;

export const spendTotalsFilterSchema = z.union([
  z.object({ submissionId: id }),
  z.object({ day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
]);
export type SpendTotalsFilter = z.infer<typeof spendTotalsFilterSchema>;

export interface SpendLedgerState {
  open: AttemptRecord[];
  /** The most recent closes, oldest first: a repeated close of one of these changes nothing. */
  closed: { attemptId: string; state: 'settled' | 'released'; costUsd: number }[];
  days: { day: string; settledUsd: number; attempts: number }[];
  submissions: { submissionId: string; settledUsd: number; lastDay: string; attempts: number }[];
}

export const spendLedgerLimits = { closedKept: 300, daysKept: 8, submissionsKept: 500 } as const;

/** Float sums of many small costs drift; a ceiling is passed only by more than this. */
const toleranceUsd = 1e-9;

export function emptySpendLedgerState(): SpendLedgerState {
  return { open: [], closed: [], days: [], submissions: [] };
}

export function utcDayOf(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

export function ledgerTotals(state: SpendLedgerState, filter: SpendTotalsFilter): SpendTotals {
  const bySubmission = 'submissionId' in filter;
  const open = state.open.filter((attempt) =>
    bySubmission ? attempt.submissionId === filter.submissionId : attempt.day === filter.day,
  );
  const reservedUsd = open.reduce((sum, attempt) => sum + attempt.reservedUsd, 0);
  const settled = bySubmission
    ? state.submissions.find((entry) => entry.submissionId === filter.submissionId)
    : state.days.find((entry) => entry.day === filter.day);
  const settledUsd = settled?.settledUsd ?? 0;
  const closedAttempts = settled?.attempts ?? 0;
  return {
    settledUsd,
    reservedUsd,
    totalUsd: settledUsd + reservedUsd,
    attempts: closedAttempts + open.length,
    openAttempts: open.length,
  };
}

/** Why a new reservation of amountUsd would pass a ceiling, given the totals so far; undefined when it fits both. */
export function ceilingRefusal(
  request: { submissionId: string; day: string; amountUsd: number },
  ceilings: Ceilings,
  totalsOf: (filter: SpendTotalsFilter) => SpendTotals,
): CeilingRefusal | undefined {
  const checks = [
    {
      ceiling: 'submission' as const,
      scope: request.submissionId,
      ceilingUsd: ceilings.submissionUsd,
      totals: totalsOf({ submissionId: request.submissionId }),
    },
    {
      ceiling: 'daily' as const,
      scope: request.day,
      ceilingUsd: ceilings.dailyUsd,
      totals: totalsOf({ day: request.day }),
    },
  ];
  for (const check of checks) {
    if (check.totals.totalUsd + request.amountUsd > check.ceilingUsd + toleranceUsd) {
      return {
        ceiling: check.ceiling,
        scope: check.scope,
        ceilingUsd: check.ceilingUsd,
        spentUsd: check.totals.settledUsd,
        reservedUsd: check.totals.reservedUsd,
        capUsd: request.amountUsd,
      };
    }
  }
  return undefined;
}

export type ReserveStep = ReserveOutcome | { ok: false; closedAlready: true };

/** Reserves in place, or refuses. Idempotent for an attempt still open; an attempt already closed cannot be reserved
 * again. */
export function reserveSpend(state: SpendLedgerState, request: ReserveSpendRequest, day: string): ReserveStep {
  const known = state.open.find((attempt) => attempt.attemptId === request.attemptId);
  if (known) return { ok: true, day: known.day };
  if (state.closed.some((entry) => entry.attemptId === request.attemptId)) return { ok: false, closedAlready: true };
  const refusal = ceilingRefusal(
    { submissionId: request.submissionId, day, amountUsd: request.amountUsd },
    request.ceilings,
    (filter) => ledgerTotals(state, filter),
  );
  if (refusal) return { ok: false, refusal };
  state.open.push({
    attemptId: request.attemptId,
    submissionId: request.submissionId,
    scenario: request.scenario,
    day,
    reservedUsd: request.amountUsd,
    state: 'open',
    costUsd: 0,
    owner: request.owner,
    ...(request.callLogFile ? { callLogFile: request.callLogFile } : {}),
  });
  return { ok: true, day };
}

/** Closes an open attempt in place: `closed`, `repeat` (closed before), or `unknown` (never reserved, or long
 * forgotten). */
export function closeSpend(state: SpendLedgerState, request: CloseSpendRequest): 'closed' | 'repeat' | 'unknown' {
  const index = state.open.findIndex((attempt) => attempt.attemptId === request.attemptId);
  if (index < 0) return state.closed.some((entry) => entry.attemptId === request.attemptId) ? 'repeat' : 'unknown';
  const attempt = state.open.splice(index, 1)[0]!;
  const costUsd = request.kind === 'settle' ? request.costUsd : 0;
  fold(state, attempt, request.kind === 'settle' ? 'settled' : 'released', costUsd);
  return 'closed';
}

function fold(
  state: SpendLedgerState,
  attempt: AttemptRecord,
  closedAs: 'settled' | 'released',
  costUsd: number,
): void {
  state.closed.push({ attemptId: attempt.attemptId, state: closedAs, costUsd });
  if (state.closed.length > spendLedgerLimits.closedKept)
    state.closed.splice(0, state.closed.length - spendLedgerLimits.closedKept);
  const day = state.days.find((entry) => entry.day === attempt.day);
  if (day) {
    day.settledUsd += costUsd;
    day.attempts += 1;
  } else {
    state.days.push({ day: attempt.day, settledUsd: costUsd, attempts: 1 });
  }
  const submission = state.submissions.find((entry) => entry.submissionId === attempt.submissionId);
  if (submission) {
    submission.settledUsd += costUsd;
    submission.attempts += 1;
    if (attempt.day > submission.lastDay) submission.lastDay = attempt.day;
  } else {
    state.submissions.push({
      submissionId: attempt.submissionId,
      settledUsd: costUsd,
      lastDay: attempt.day,
      attempts: 1,
    });
  }
}

/**
 * Drops what fell out of the window ending `today` (in place): older days and submissions, and
 * open attempts of older days, which are closed at their full reservation first (a lost host's
 * attempt whose worker never came back to settle it from its call log).
 */
export function compactSpendLedger(state: SpendLedgerState, today: string): { expired: string[] } {
  const oldestKept = utcDayOf(Date.parse(`${today}T00:00:00Z`) - (spendLedgerLimits.daysKept - 1) * 86_400_000);
  const expired = state.open.filter((attempt) => attempt.day < oldestKept);
  for (const attempt of expired) {
    state.open.splice(state.open.indexOf(attempt), 1);
    fold(state, attempt, 'settled', attempt.reservedUsd);
  }
  state.days = state.days.filter((entry) => entry.day >= oldestKept).sort((a, b) => a.day.localeCompare(b.day));
  const live = new Set(state.open.map((attempt) => attempt.submissionId));
  state.submissions = state.submissions
    .filter((entry) => entry.lastDay >= oldestKept || live.has(entry.submissionId))
    .sort((a, b) => b.lastDay.localeCompare(a.lastDay))
    .filter((entry, index) => index < spendLedgerLimits.submissionsKept || live.has(entry.submissionId));
  return { expired: expired.map((attempt) => attempt.attemptId) };
}
