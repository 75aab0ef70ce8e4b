// The scenario's model-call log, JSON lines, the money trail and what replay feeds back. A call
// gets a `start` row when its reservation is made (before anything goes upstream: request body,
// reservation, max_tokens, whether it was clamped) and an `end` row when it is settled (usage,
// cost, upstream request id, response). A call still in flight when the worker stops or dies has a
// start row and no end row; the spend ledger then counts its reservation (spend/call-log-cost.ts).
// A refused call is one `refused` row without its body: refusals cost nothing and must not let a
// policy fill the disk.
import { AppendLog } from '../common/append-log.ts';
import { joinJsonObjects } from '../common/join-json-objects.ts';

export type CallStatus = 'ok' | 'refused' | 'error';

interface CallIdentity {
  callId: string;
  /** The agent request this call serves (joins the turn log). */
  requestId?: string;
  branch?: string;
  model: string;
  streamed: boolean;
}

export interface CallStartRow extends CallIdentity {
  phase: 'start';
  /** The live rule's character-class estimate (logged; not what is reserved). */
  promptEstimateTokens: number;
  /** The prompt's token bound the reservation is made from (meter/prompt-bound.ts). */
  promptBoundTokens?: number;
  /** Answers asked for (`n`), each reserved at maxTokens. */
  answerCount: number;
  /** What was sent upstream as max_tokens. */
  maxTokens: number;
  /** maxTokens was cut to what the budget could buy. */
  clamped: boolean;
  reservedUsd: number;
  request: unknown;
}

export interface CallEndRow extends CallIdentity {
  phase: 'end';
  status: 'ok' | 'error';
  /** A gateway error type; `abandoned` for a call the policy left (cut when its client went or the episode ended). */
  errorType?: string;
  /** The upstream's id of the call (x-request-id, else the body's id). */
  upstreamRequestId?: string;
  /** Upstream attempts, 429/503 retries included. */
  attempts: number;
  /** What the charge was computed from: usage, or the reservation (no usage), or nothing (released). */
  basis: 'usage' | 'failed-after-send' | 'missing-usage' | 'invalid-usage' | 'released';
  promptTokens: number;
  cachedPromptTokens: number;
  completionTokens: number;
  maxTokens: number;
  clamped: boolean;
  reservedUsd: number;
  costUsd: number;
  /** What the upstream billed above the reservation (beyond the bound): its fault, not charged; non-zero closes the
   * episode. */
  overshootUsd: number;
  spentAfterUsd: number;
  latencyMs: number;
  response?: unknown;
}

export interface CallRefusedRow extends CallIdentity {
  phase: 'refused';
  status: 'refused';
  errorType: string;
  message: string;
  promptEstimateTokens?: number;
  promptBoundTokens?: number;
  reservedUsd: 0;
  costUsd: 0;
  spentAfterUsd: number;
}

export type CallLogRow = CallStartRow | CallEndRow | CallRefusedRow;

/** The in-memory summary of a finished (or refused) call: its end or refused row without bodies. */
export type CallLogEntry = Omit<CallEndRow, 'response'> | CallRefusedRow;

export class CallLog {
  private stream: AppendLog | undefined;
  // Rows of this event-loop turn, written together once the turn's I/O is under way: a file write
  // per row, on the request path, was most of the gateway's own time per call (bench/gateway-overhead.ts).
  private pending: string[] = [];
  private flushScheduled = false;
  /** Finished and refused calls, in the order they finished. */
  readonly entries: CallLogEntry[] = [];
  private readonly inFlight = new Set<string>();

  constructor(readonly file?: string) {
    // A write that fails (a full disk) makes close() reject: a call log short of rows is never kept as complete.
    if (file) this.stream = new AppendLog(file);
  }

  /** Calls started and not yet ended. */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /**
   * `requestJson`, when given, is the JSON text of `row.request` (the gateway has it from the
   * meter's one serialization); the row is written with it instead of serializing the body again.
   */
  started(row: Omit<CallStartRow, 'phase'>, requestJson?: string): void {
    this.inFlight.add(row.callId);
    if (requestJson === undefined) {
      this.write({ phase: 'start', ...row });
      return;
    }
    if (!this.stream) return;
    const { request: _request, ...rest } = row;
    this.writeText(joinJsonObjects(this.rowJson({ phase: 'start', ...rest }), `{"request":${requestJson}}`));
  }

  ended(row: Omit<CallEndRow, 'phase'>): void {
    this.inFlight.delete(row.callId);
    const full: CallEndRow = { phase: 'end', ...row };
    const { response: _response, ...summary } = full;
    this.entries.push(summary);
    this.write(full);
  }

  refused(row: Omit<CallRefusedRow, 'phase' | 'status' | 'reservedUsd' | 'costUsd'>): void {
    const full: CallRefusedRow = { phase: 'refused', status: 'refused', reservedUsd: 0, costUsd: 0, ...row };
    this.entries.push(full);
    this.write(full);
  }

  private rowJson(row: object): string {
    return JSON.stringify({ time: new Date().toISOString(), ...row });
  }

  private write(row: CallLogRow): void {
    if (!this.stream) return;
    this.writeText(this.rowJson(row));
  }

  private writeText(rowJson: string): void {
    if (!this.stream) return;
    this.pending.push(rowJson);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.pending.length === 0) return;
    const text = `${this.pending.join('\n')}\n`;
    this.pending = [];
    this.stream?.write(text);
  }

  async close(): Promise<void> {
    this.flush();
    const stream = this.stream;
    this.stream = undefined;
    await stream?.close();
  }
}

/** The token counts a call's usage reports, for its end row; a missing or malformed count is 0. */
export function reportedTokens(
  usage: unknown,
): Pick<CallEndRow, 'promptTokens' | 'cachedPromptTokens' | 'completionTokens'> {
  const reported = (usage ?? {}) as {
    prompt_tokens?: unknown;
    completion_tokens?: unknown;
    prompt_tokens_details?: { cached_tokens?: unknown } | null;
  };
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  return {
    promptTokens: count(reported.prompt_tokens),
    cachedPromptTokens: count(reported.prompt_tokens_details?.cached_tokens),
    completionTokens: count(reported.completion_tokens),
  };
}
