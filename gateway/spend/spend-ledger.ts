// The validator's money ledger across scenario attempts, retried ones included: append-only JSON
// lines, one file per UTC day (`spend-YYYY-MM-DD.jsonl`) in one directory, kept by the worker host.
// An attempt reserves the scenario cap before paid work starts and is settled (its real cost) or
// released (nothing spent) when it ends. Totals per submission (all days) and per UTC day are
// settled costs plus open reservations; a reservation that would pass a ceiling is refused.
//
// Concurrency: in one process, operations run one at a time (a promise chain); across processes,
// each operation holds a lock file (O_EXCL) for its few milliseconds and first reads what other
// processes appended since (each file is read from the offset already consumed), so worker
// processes on one host may share the directory. Workers on different hosts need a directory each
// (the lock is host-local: a pid is only checked on its own host).
//
// Reads are robust: a corrupt line is skipped and counted; an unterminated last line (a crash
// mid-write) is left unread, and terminated with a newline before the next append to that file so
// it can never swallow a good line. An attempt whose worker died before settling keeps its
// reservation counted at the cap until a later worker settles it from its model-call log
// (settle-orphaned-attempts.ts) — conservative: a crash can only make the ledger count more.
import { mkdir, open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { withFileLock } from '../../common/file-lock.ts';
import {
  parseSpendLines,
  utcDay,
  type ReleaseEvent,
  type ReserveEvent,
  type SettleEvent,
  type SpendEvent,
} from './spend-events.ts';
import { SpendBook } from './spend-book.ts';
import type { ReserveRequest, SpendAccount } from './spend-account.ts';
import type { AttemptRecord, Ceilings, ReserveOutcome, SpendTotals } from '../../contracts/spend-ledger-state.ts';

export interface SpendLedgerOptions {
  dir: string;
  ceilings: Ceilings;
  /** Injected for tests (day boundaries); defaults to the system clock. */
  clock?: () => Date;
  lockStaleMs?: number;
  lockTimeoutMs?: number;
}

export interface LedgerReadStats {
  /** Complete lines that were not valid events, skipped. */
  corruptLines: number;
  /** Files whose last line is unterminated (a write cut short by a crash), not yet read. */
  tornTails: number;
}

const filePattern = /^spend-(\d{4}-\d{2}-\d{2})\.jsonl$/;

export function spendFileName(day: string): string {
  return `spend-${day}.jsonl`;
}

export class SpendLedger implements SpendAccount {
  private readonly book = new SpendBook();
  /** Bytes of each file already read (always just after a newline). */
  private readonly offsets = new Map<string, number>();
  private readonly tornTails = new Set<string>();
  private corruptLines = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly clock: () => Date;
  private readonly lockFile: string;

  private constructor(private readonly options: SpendLedgerOptions) {
    this.clock = options.clock ?? (() => new Date());
    this.lockFile = path.join(options.dir, '.lock');
  }

  static async open(options: SpendLedgerOptions): Promise<SpendLedger> {
    await mkdir(options.dir, { recursive: true });
    const ledger = new SpendLedger(options);
    await ledger.exclusive(async () => undefined);
    return ledger;
  }

  get dir(): string {
    return this.options.dir;
  }

  get description(): string {
    return `files in ${this.options.dir}`;
  }

  get ceilings(): Ceilings {
    return this.options.ceilings;
  }

  /** Reserves amountUsd for one attempt, or refuses when either ceiling would be passed. Idempotent per open attempt.
   * */
  reserve(request: ReserveRequest): Promise<ReserveOutcome> {
    return this.exclusive(async () => {
      const known = this.book.get(request.attemptId);
      if (known?.state === 'open') return { ok: true, day: known.day };
      if (known)
        throw new Error(
          `spend ledger: attempt ${request.attemptId} is already closed (${known.state}) and cannot be reserved again`,
        );
      const now = this.clock();
      const day = utcDay(now);
      const refusal = this.book.refusal(
        { submissionId: request.submissionId, day, amountUsd: request.amountUsd },
        this.options.ceilings,
      );
      if (refusal) return { ok: false, refusal };
      const event: ReserveEvent = {
        kind: 'reserve',
        time: now.toISOString(),
        attemptId: request.attemptId,
        submissionId: request.submissionId,
        scenario: request.scenario,
        day,
        amountUsd: request.amountUsd,
        owner: request.owner,
        ...(request.callLogFile ? { callLogFile: request.callLogFile } : {}),
      };
      await this.append(event);
      return { ok: true, day };
    });
  }

  /** Closes an open attempt with its real cost. A second close of the same attempt is ignored. */
  settle(
    attemptId: string,
    costUsd: number,
    details: { source: SettleEvent['source']; calls?: number } = { source: 'gateway' },
  ): Promise<void> {
    return this.close(attemptId, (base) => ({
      kind: 'settle',
      ...base,
      costUsd: Math.max(0, costUsd),
      source: details.source,
      ...(details.calls === undefined ? {} : { calls: details.calls }),
    }));
  }

  /** Closes an open attempt that spent nothing (its paid work never started). */
  release(attemptId: string, reason: string): Promise<void> {
    return this.close(attemptId, (base) => ({ kind: 'release', ...base, reason }));
  }

  totals(filter: { submissionId: string } | { day: string }): Promise<SpendTotals> {
    return this.exclusive(async () => this.book.totals(filter));
  }

  /** The UTC day of the ledger's clock now. */
  today(): string {
    return utcDay(this.clock());
  }

  attempt(attemptId: string): Promise<AttemptRecord | undefined> {
    return this.exclusive(async () => this.book.get(attemptId));
  }

  openAttempts(): Promise<AttemptRecord[]> {
    return this.exclusive(async () => this.book.openAttempts());
  }

  readStats(): Promise<LedgerReadStats> {
    return this.exclusive(async () => ({ corruptLines: this.corruptLines, tornTails: this.tornTails.size }));
  }

  private close(
    attemptId: string,
    build: (
      base: Pick<SpendEvent, 'time' | 'attemptId' | 'submissionId' | 'scenario' | 'day'>,
    ) => SettleEvent | ReleaseEvent,
  ): Promise<void> {
    return this.exclusive(async () => {
      const known = this.book.get(attemptId);
      if (!known) throw new Error(`spend ledger: attempt ${attemptId} was never reserved`);
      if (known.state !== 'open') return;
      await this.append(
        build({
          time: this.clock().toISOString(),
          attemptId,
          submissionId: known.submissionId,
          scenario: known.scenario,
          day: known.day,
        }),
      );
    });
  }

  /** One operation at a time in this process, under the lock file, after reading what others appended. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() =>
      withFileLock(
        this.lockFile,
        async () => {
          await this.refresh();
          return fn();
        },
        { staleMs: this.options.lockStaleMs, timeoutMs: this.options.lockTimeoutMs },
      ),
    );
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async refresh(): Promise<void> {
    const names = (await readdir(this.options.dir)).filter((name) => filePattern.test(name)).sort();
    for (const name of names) {
      const file = path.join(this.options.dir, name);
      const consumed = this.offsets.get(name) ?? 0;
      const { size } = await stat(file);
      if (size <= consumed) continue;
      const handle = await open(file, 'r');
      let bytes: Buffer;
      try {
        bytes = Buffer.alloc(size - consumed);
        const { bytesRead } = await handle.read(bytes, 0, bytes.length, consumed);
        bytes = bytes.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
      const lastNewline = bytes.lastIndexOf(0x0a);
      const complete = lastNewline < 0 ? Buffer.alloc(0) : bytes.subarray(0, lastNewline + 1);
      if (lastNewline + 1 < bytes.length) this.tornTails.add(name);
      else this.tornTails.delete(name);
      if (complete.length === 0) continue;
      const parsed = parseSpendLines(complete.toString('utf8'));
      this.corruptLines += parsed.corruptLines;
      for (const event of parsed.events) this.book.apply(event);
      this.offsets.set(name, consumed + complete.length);
    }
  }

  /** Appends one line with O_APPEND and syncs it; applied to the book only once it is on disk. */
  private async append(event: SpendEvent): Promise<void> {
    const name = spendFileName(utcDay(new Date(event.time)));
    // Under the lock an unterminated tail is a dead writer's: end it so it cannot swallow this line.
    const line = `${this.tornTails.has(name) ? '\n' : ''}${JSON.stringify(event)}\n`;
    const handle = await open(path.join(this.options.dir, name), 'a');
    try {
      await handle.write(line);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    this.tornTails.delete(name);
    // The line is read again by the next refresh; folding is idempotent, so that changes nothing.
    this.book.apply(event);
  }
}
