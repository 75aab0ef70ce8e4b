// One prepared model call and its attempts upstream: the body each attempt sends (the billed part
// serialized once, the meter's length, each attempt's stream fields), the headers that tell the sim
// fleet which attempt of which try it is, the abort linked to the client's, and the gateway's
// retries of an upstream 429/503 with growing back-off.
import { setTimeout as sleepFor } from 'node:timers/promises';
import { withBodyText } from './upstream/chat-upstream.ts';
import type { ModelEntry } from './catalog/allowlist.ts';
import { isRetriedByGateway } from './gateway-error.ts';

/** Waits before the 1st … 6th retry of an upstream 429/503. */
export const defaultRetryDelaysMs: readonly number[] = [250, 500, 1000, 2000, 4000, 8000];

export type ChatBody = Record<string, unknown>;

export interface PreparedCall {
  callId: string;
  model: ModelEntry;
  identity: { callId: string; requestId?: string; branch?: string; model: string; streamed: boolean };
  reservationId: string;
  maxTokens: number;
  clamped: boolean;
  reservedUsd: number;
  upstreamBody: ChatBody;
  /** The JSON text of `{ ...upstreamBody, ...extra }`, from the one serialization of the billed part (absent for a body
   * that is not JSON's). */
  upstreamText?: (extra: Record<string, unknown>) => string;
  started: number;
  abort: AbortController;
}

export interface CallOutcome {
  status: 'ok' | 'error';
  errorType?: string;
  usage?: unknown;
  /** The request left and failed (or was cut) without usage. */
  failedAfterSend?: boolean;
  /** Known to be unbilled (refused upstream, never sent): the reservation is released. */
  release?: boolean;
  upstreamRequestId?: string;
  attempts: number;
  response?: unknown;
}

export function linkedAbort(signal: AbortSignal | undefined): AbortController {
  const controller = new AbortController();
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  return controller;
}

// The attempt number and the scenario's try go upstream as headers (the sim fleet rolls the faults
// of each attempt of each try anew).
export function requestOptions(
  prepared: PreparedCall,
  attempt: number,
  tryKey?: string,
): { signal: AbortSignal; headers?: Record<string, string> } {
  const headers: Record<string, string> = {};
  if (attempt > 1) headers['x-trl-attempt'] = String(attempt);
  if (tryKey) headers['x-trl-try'] = tryKey;
  return Object.keys(headers).length ? { signal: prepared.abort.signal, headers } : { signal: prepared.abort.signal };
}

/** The fields the gateway does not pass upstream as they came: the length is the meter's, the stream fields each
 * attempt's. */
export function notSentUpstream(fields: ChatBody): ChatBody {
  const { max_completion_tokens: _length, stream: _stream, stream_options: _streamOptions, ...rest } = fields;
  return rest;
}

/** The upstream body of one attempt, carrying its JSON text when the gateway has it (chat-upstream.ts). */
export function upstreamRequest(prepared: PreparedCall, extra: Record<string, unknown>): ChatBody {
  const body = { ...prepared.upstreamBody, ...extra };
  return prepared.upstreamText ? withBodyText(body, prepared.upstreamText(extra)) : body;
}

/** Calls `create` and reads the x-request-id header when the client offers it (test fakes may not). */
export async function withRequestId<T>(
  promise: Promise<T> & { withResponse?: () => Promise<{ data: T; request_id: string | null }> },
): Promise<{ data: T; requestId?: string }> {
  if (typeof promise.withResponse !== 'function') return { data: await promise };
  const { data, request_id } = await promise.withResponse();
  return { data, requestId: request_id ?? undefined };
}

/** An upstream failure with the number of attempts made (429/503 retries included). */
export class AttemptsError extends Error {
  attempts = 1;
  constructor(override readonly cause: unknown) {
    super('upstream call failed');
  }
}

/** Sends with up to retryDelaysMs.length retries of an upstream 429/503; returns the attempts made. */
export async function sendWithRetries<T>(
  prepared: PreparedCall,
  retryDelaysMs: readonly number[],
  send: (attempt: number) => Promise<T>,
): Promise<{ value: T; attempts: number }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { value: await send(attempt), attempts: attempt };
    } catch (error) {
      const delay = retryDelaysMs[attempt - 1];
      if (delay === undefined || !isRetriedByGateway(error) || prepared.abort.signal.aborted) {
        throw Object.assign(new AttemptsError(error), { attempts: attempt });
      }
      try {
        await sleepFor(delay, undefined, { signal: prepared.abort.signal });
      } catch {
        throw Object.assign(new AttemptsError(error), { attempts: attempt });
      }
    }
  }
}
