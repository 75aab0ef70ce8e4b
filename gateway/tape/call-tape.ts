// A tape: the model calls a run recorded (model-calls.jsonl start/end rows: request and response
// bodies), played back by fingerprint of the request. The first request with no recorded twin is a
// divergence, described by the turn it happened on and the first field that differs. A call the recording
// started and never got an answer for (abandoned by the policy, or open when the run stopped) is on the tape
// as a cut: asked again, it is again left unanswered. Pure: the gateway-side wiring (`trl eval --tape`) is
// built on top of this.
import { createHash } from 'node:crypto';

export interface TapeEntry {
  /** Position in the recording (0-based), in the order the calls started. */
  index: number;
  callId: string;
  /** The agent request (turn) the call served. */
  requestId?: string;
  model: string;
  request: Record<string, unknown>;
  response: unknown;
  streamed: boolean;
  fingerprint: string;
}

/** Fields that do not decide the answer, or that the gateway rewrites (max_tokens follows the budget). */
const ignoredFields = new Set([
  'stream',
  'stream_options',
  'max_tokens',
  'max_completion_tokens',
  'seed',
  'user',
  'metadata',
]);

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** What a request is matched by: the model and every field that decides the answer, canonically ordered. */
export function requestKey(model: string, request: Record<string, unknown>): Record<string, unknown> {
  const kept = Object.fromEntries(
    Object.entries(request).filter(([key, value]) => !ignoredFields.has(key) && value !== undefined),
  );
  return canonical({ ...kept, model }) as Record<string, unknown>;
}

export function requestFingerprint(model: string, request: Record<string, unknown>): string {
  return createHash('sha256')
    .update(JSON.stringify(requestKey(model, request)))
    .digest('hex');
}

interface LogRow {
  phase?: string;
  callId?: string;
  requestId?: string;
  model?: string;
  streamed?: boolean;
  status?: string;
  errorType?: string;
  request?: unknown;
  response?: unknown;
}

/** Why a recorded call ended without an answer and is on the tape as a cut: the validator cut it (the policy left it,
 * or the episode ended with it open), or the log has no end for it (the run stopped with it open). */
const cutTypes = new Set(['abandoned', 'cancelled']);

function readCalls(callLogText: string): { order: string[]; starts: Map<string, LogRow>; ends: Map<string, LogRow> } {
  const starts = new Map<string, LogRow>();
  const order: string[] = [];
  const ends = new Map<string, LogRow>();
  for (const line of callLogText.split('\n')) {
    if (!line.trim()) continue;
    let row: LogRow;
    try {
      row = JSON.parse(line) as LogRow;
    } catch {
      continue;
    }
    if (!row.callId) continue;
    if (row.phase === 'start') {
      starts.set(row.callId, row);
      order.push(row.callId);
    } else if (row.phase === 'end') {
      ends.set(row.callId, row);
    }
  }
  return { order, starts, ends };
}

function entryOf(index: number, callId: string, start: LogRow, response: unknown): TapeEntry {
  const request = start.request as Record<string, unknown>;
  const model = start.model ?? String(request.model ?? '');
  return {
    index,
    callId,
    requestId: start.requestId,
    model,
    request,
    response,
    streamed: Boolean(start.streamed),
    fingerprint: requestFingerprint(model, request),
  };
}

/** The successful calls of a model-call log, in start order; refused, failed and unfinished calls are not on the tape.
 * */
export function loadTape(callLogText: string): TapeEntry[] {
  const { order, starts, ends } = readCalls(callLogText);
  const entries: TapeEntry[] = [];
  for (const callId of order) {
    const start = starts.get(callId)!;
    const end = ends.get(callId);
    if (
      !end ||
      end.status !== 'ok' ||
      end.response === undefined ||
      !start.request ||
      typeof start.request !== 'object'
    )
      continue;
    entries.push(entryOf(entries.length, callId, start, end.response));
  }
  return entries;
}

/** The calls the recording started and never got an answer for, in start order (their `response` is undefined). */
export function loadTapeCuts(callLogText: string): TapeEntry[] {
  const { order, starts, ends } = readCalls(callLogText);
  const cuts: TapeEntry[] = [];
  for (const callId of order) {
    const start = starts.get(callId)!;
    const end = ends.get(callId);
    if (!start.request || typeof start.request !== 'object') continue;
    if (end && !(end.status === 'error' && cutTypes.has(end.errorType ?? ''))) continue;
    cuts.push(entryOf(cuts.length, callId, start, undefined));
  }
  return cuts;
}

/** The first path at which two JSON values differ, e.g. `messages[3].content`, with both values. */
export function firstDifference(
  recorded: unknown,
  asked: unknown,
  at = '',
): { path: string; recorded: unknown; asked: unknown } | undefined {
  if (Array.isArray(recorded) && Array.isArray(asked)) {
    for (let i = 0; i < Math.max(recorded.length, asked.length); i++) {
      if (i >= recorded.length || i >= asked.length)
        return { path: `${at}[${i}]`, recorded: recorded[i], asked: asked[i] };
      const inner = firstDifference(recorded[i], asked[i], `${at}[${i}]`);
      if (inner) return inner;
    }
    return undefined;
  }
  if (
    recorded &&
    asked &&
    typeof recorded === 'object' &&
    typeof asked === 'object' &&
    !Array.isArray(recorded) &&
    !Array.isArray(asked)
  ) {
    const keys = [...new Set([...Object.keys(recorded), ...Object.keys(asked)])].sort();
    for (const key of keys) {
      const inner = firstDifference(
        (recorded as Record<string, unknown>)[key],
        (asked as Record<string, unknown>)[key],
        at ? `${at}.${key}` : key,
      );
      if (inner) return inner;
    }
    return undefined;
  }
  return JSON.stringify(recorded) === JSON.stringify(asked) ? undefined : { path: at || '(body)', recorded, asked };
}

export class TapeDivergence extends Error {
  constructor(
    readonly turn: number,
    readonly requestId: string | undefined,
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'TapeDivergence';
  }
}

function shown(value: unknown): string {
  const text = value === undefined ? '(absent)' : JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

/** What the tape does with a request: answer it as recorded, or leave it unanswered as the recording was left. */
export type TapePlay =
  | { kind: 'answer'; entry: TapeEntry }
  /** `recordingEnded`: every answer on the tape was played, so this is where the recording stopped. */
  | { kind: 'cut'; entry: TapeEntry; recordingEnded: boolean };

/** Plays a tape: each request takes the first unused recording with its fingerprint, else the first unused cut. */
export class TapePlayer {
  private readonly used = new Set<number>();
  private readonly usedCuts = new Set<number>();
  private asked = 0;

  constructor(
    readonly entries: readonly TapeEntry[],
    readonly cuts: readonly TapeEntry[] = [],
  ) {}

  /** The recorded answer to a request; throws TapeDivergence when there is none (a cut included). */
  next(model: string, request: Record<string, unknown>): TapeEntry {
    const play = this.play(model, request);
    if (play.kind === 'answer') return play.entry;
    throw new TapeDivergence(this.asked, play.entry.requestId, '(none)', `call ${this.asked} was cut in the recording`);
  }

  play(model: string, request: Record<string, unknown>): TapePlay {
    this.asked += 1;
    const fingerprint = requestFingerprint(model, request);
    const match = this.entries.find((entry) => !this.used.has(entry.index) && entry.fingerprint === fingerprint);
    if (match) {
      this.used.add(match.index);
      return { kind: 'answer', entry: match };
    }
    const cut = this.cuts.find((entry) => !this.usedCuts.has(entry.index) && entry.fingerprint === fingerprint);
    if (cut) {
      this.usedCuts.add(cut.index);
      return { kind: 'cut', entry: cut, recordingEnded: this.unplayed().length === 0 };
    }
    // Compared with the recording this request most likely stands for: the next one not yet played.
    const expected = this.entries.find((entry) => !this.used.has(entry.index));
    const turn = this.asked;
    if (!expected)
      throw new TapeDivergence(
        turn,
        undefined,
        '(none)',
        `tape diverged at call ${turn}: the recording has only ${this.entries.length} call(s), all played`,
      );
    const difference = firstDifference(requestKey(expected.model, expected.request), requestKey(model, request));
    const field = difference?.path ?? '(body)';
    throw new TapeDivergence(
      turn,
      expected.requestId,
      field,
      `tape diverged at call ${turn} (recorded as ${expected.requestId ?? `call ${expected.index + 1}`}): ${field} was ${shown(difference?.recorded)}, now ${shown(difference?.asked)}`,
    );
  }

  /** Recorded calls never asked for (a run that stopped early, or took another path). */
  unplayed(): TapeEntry[] {
    return this.entries.filter((entry) => !this.used.has(entry.index));
  }
}
