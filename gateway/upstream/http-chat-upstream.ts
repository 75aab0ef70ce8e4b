// The gateway's client of an OpenAI-compatible upstream: one POST to /chat/completions on
// node:http(s) with keep-alive agents, the answer parsed once, a streamed answer read as
// server-sent events. The OpenAI SDK it replaces went through web Headers, Response and streams
// and formatted debug details of every request, logged or not: most of what the gateway's own hop
// still cost (bench/gateway-overhead.ts). No retries here: the gateway retries 429 and 503 itself.
//
// Connection faults are the validator's, never a policy's: keep-alive sockets idle longer than
// idleSocketTimeoutMs are closed by us (below the 5 s idle timeout of Node servers, the sim fleet's
// included), and a request that fails on a reused socket before any byte of an answer — the
// upstream had closed that idle socket, so it never read the request — is sent again, once, on a
// fresh connection (issue 36: 6 of 2,000 calls after a pause were charged to the policy as
// `failed-after-send`). The stale send is not charged: only the fresh attempt's outcome is booked.
//
// Its failures are the SDK's error classes, raised on the same conditions (an HTTP error status,
// an `error` object in the stream, a connection that failed or timed out, the caller's abort), so
// gateway/gateway-error.ts blames and bills a failure the same whichever client met it.
import http from 'node:http';
import https from 'node:https';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { parseJsonBounded } from '../../common/bounded-json.ts';
import { readSseEvents, SseEventTooLargeError } from './sse-events.ts';
import { bodyTextOf, type ChatUpstream, type UpstreamRequestOptions } from './chat-upstream.ts';

export interface HttpChatUpstreamOptions {
  /** The API's base, ending in /v1 (e.g. http://127.0.0.1:4000/v1). */
  baseURL: string;
  apiKey: string;
  /** From sending to the whole answer (to the first byte of a streamed one). */
  timeoutMs: number;
  /** A whole answer (or an error body) larger than this fails the call as the upstream's. */
  maxAnswerBytes?: number;
}

type ChatBody = Record<string, unknown>;
type Answer = { data: unknown; requestId?: string };
export type UpstreamPromise = Promise<unknown> & {
  withResponse(): Promise<{ data: unknown; request_id: string | null }>;
};

const defaultMaxAnswerBytes = 64 * 1024 * 1024;

/**
 * How long a keep-alive socket may sit idle before we close it: below the upstream's own idle
 * timeout (5 s for Node's http servers, the sim fleet's; 60–75 s for common proxies), so we close
 * first and never write into a socket the upstream is closing.
 */
export const idleSocketTimeoutMs = 4000;

// Errors of a write into a socket the peer had closed.
const staleSocketCodes: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** A request on a reused keep-alive socket failed before any answer byte: the upstream never read it. */
class StaleConnectionError extends Error {
  constructor(override readonly cause: Error) {
    super(`the reused connection was closed by the upstream before it answered: ${cause.message}`);
    this.name = 'StaleConnectionError';
  }
}

function isStaleSocketError(error: Error & { code?: string }): boolean {
  return (error.code !== undefined && staleSocketCodes.has(error.code)) || error.message === 'socket hang up';
}
const maxErrorBodyBytes = 1024 * 1024;

/** The response headers as the SDK's errors keep them (APIError reads x-request-id from them). */
function headersOf(incoming: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

function requestIdOf(incoming: http.IncomingMessage): string | undefined {
  const id = incoming.headers['x-request-id'];
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** The upstream answered, but not with a completion the gateway can read (too large, not JSON): its failure. */
class UnreadableAnswerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableAnswerError';
  }
}

function readBody(incoming: http.IncomingMessage, maxBytes: number): Promise<string> {
  // Events, not an async iterator: the iterator's promise per chunk showed in the gateway's profile.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        incoming.destroy();
        return reject(new UnreadableAnswerError(`the upstream's answer is over ${maxBytes} bytes`));
      }
      chunks.push(chunk);
    });
    incoming.once('end', () =>
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')),
    );
    incoming.once('error', reject);
    // Cut before its end (the socket closed or was destroyed): no 'end' comes.
    incoming.once('close', () => {
      if (!incoming.complete) reject(new Error('the upstream closed the connection before the answer ended'));
    });
  });
}

function parseOrUndefined(text: string): unknown {
  try {
    return parseJsonBounded(text);
  } catch {
    return undefined;
  }
}

export class HttpChatUpstream implements ChatUpstream {
  /** Where every call goes, resolved once (a URL per call cost its parse). */
  private readonly target: http.RequestOptions;
  private readonly transport: typeof http | typeof https;
  private readonly agent: http.Agent;
  private readonly maxAnswerBytes: number;

  readonly chat = {
    completions: {
      create: (body: ChatBody, options?: UpstreamRequestOptions): UpstreamPromise => this.create(body, options ?? {}),
    },
  };

  constructor(private readonly options: HttpChatUpstreamOptions) {
    const url = new URL(`${options.baseURL.replace(/\/+$/, '')}/chat/completions`);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new TypeError(`the upstream speaks http or https, not ${url.protocol}`);
    this.transport = url.protocol === 'https:' ? https : http;
    this.agent = new this.transport.Agent({ keepAlive: true, timeout: idleSocketTimeoutMs });
    this.maxAnswerBytes = options.maxAnswerBytes ?? defaultMaxAnswerBytes;
    this.target = {
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      agent: this.agent,
    };
  }

  /** Ends the idle keep-alive sockets. */
  close(): void {
    this.agent.destroy();
  }

  private create(body: ChatBody, options: UpstreamRequestOptions): UpstreamPromise {
    const answer = this.send(body, options);
    const data = answer.then((a) => a.data);
    // Callers use one of the two; the other must not report an unhandled rejection.
    data.catch(() => undefined);
    return Object.assign(data, {
      withResponse: () => answer.then((a) => ({ data: a.data, request_id: a.requestId ?? null })),
    });
  }

  private send(body: ChatBody, options: UpstreamRequestOptions): Promise<Answer> {
    if (options.signal?.aborted) return Promise.reject(new APIUserAbortError());
    const text = bodyTextOf(body) ?? JSON.stringify(body);
    return this.sendOnce(body, text, options, false).catch((error: unknown) => {
      if (!(error instanceof StaleConnectionError)) throw error;
      this.staleRetries += 1;
      return this.sendOnce(body, text, options, true);
    });
  }

  /** Requests sent again on a fresh connection after a reused one proved stale (for tests and benches). */
  staleRetries = 0;

  private sendOnce(body: ChatBody, text: string, options: UpstreamRequestOptions, fresh: boolean): Promise<Answer> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new APIUserAbortError());
    const streamed = body.stream === true;
    return new Promise<Answer>((resolve, reject) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      // The socket is dropped unless the answer was read to its end (it may then serve the next call).
      const fail = (error: Error, answerRead = false) => {
        if (settled) return;
        done();
        if (!answerRead) request.destroy();
        reject(error);
      };
      const onAbort = () => fail(new APIUserAbortError());
      let answered = false;
      const request = this.transport.request({
        ...this.target,
        // The second try goes on a connection of its own, never another idle one that may be stale too.
        ...(fresh ? { agent: false as const } : {}),
        headers: {
          ...options.headers,
          'content-type': 'application/json',
          accept: streamed ? 'text/event-stream' : 'application/json',
          authorization: `Bearer ${this.options.apiKey}`,
          'content-length': Buffer.byteLength(text),
        },
      });
      timer = setTimeout(() => fail(new APIConnectionTimeoutError()), options.timeout ?? this.options.timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      request.on('error', (error) =>
        fail(
          signal?.aborted
            ? new APIUserAbortError()
            : !answered && !fresh && request.reusedSocket && isStaleSocketError(error)
              ? new StaleConnectionError(error)
              : new APIConnectionError({ message: `Connection error: ${error.message}`, cause: error }),
        ),
      );
      request.once('response', (incoming) => {
        answered = true;
        const status = incoming.statusCode ?? 0;
        const requestId = requestIdOf(incoming);
        if (status < 200 || status >= 300) {
          readBody(incoming, maxErrorBodyBytes).then(
            (errorText) => {
              const errorJson = parseOrUndefined(errorText);
              fail(
                APIError.generate(
                  status,
                  errorJson as object | undefined,
                  errorJson === undefined ? errorText : undefined,
                  headersOf(incoming),
                ),
                true,
              );
            },
            (error: Error) =>
              fail(
                error instanceof UnreadableAnswerError
                  ? APIError.generate(status, undefined, error.message, headersOf(incoming))
                  : new APIConnectionError({ message: `Connection error: ${error.message}`, cause: error }),
              ),
          );
          return;
        }
        if (streamed) {
          done();
          resolve({ data: this.chunks(incoming, signal), requestId });
          return;
        }
        readBody(incoming, this.maxAnswerBytes).then(
          (answerText) => {
            if (settled) return;
            let data: unknown;
            try {
              data = parseJsonBounded(answerText);
            } catch (error) {
              // Not JSON: the upstream's failure, as the SDK's own parse error was.
              return fail(
                new UnreadableAnswerError(
                  `the upstream's answer is not JSON (${(error as Error).message}): ${answerText.slice(0, 200)}`,
                ),
                true,
              );
            }
            done();
            resolve({ data, requestId });
          },
          (error: Error) =>
            fail(
              signal?.aborted
                ? new APIUserAbortError()
                : error instanceof UnreadableAnswerError
                  ? error
                  : new APIConnectionError({ message: `Connection error: ${error.message}`, cause: error }),
            ),
        );
      });
      request.end(text);
    });
  }

  /** The chunks of a streamed answer; ends quietly when the caller aborts, as the SDK's stream does. */
  private async *chunks(incoming: http.IncomingMessage, signal: AbortSignal | undefined): AsyncGenerator<unknown> {
    const onAbort = () => incoming.destroy();
    signal?.addEventListener('abort', onAbort, { once: true });
    let done = false;
    try {
      for await (const { event, data } of readSseEvents(incoming)) {
        if (done) continue;
        if (data.startsWith('[DONE]')) {
          done = true;
          continue;
        }
        if (event?.startsWith('thread.')) continue;
        let chunk: { error?: unknown } | null;
        try {
          chunk = parseJsonBounded(data) as typeof chunk;
        } catch (error) {
          throw new UnreadableAnswerError(
            `the upstream's stream sent an event that is not JSON (${(error as Error).message}): ${data.slice(0, 200)}`,
          );
        }
        if (chunk && chunk.error) throw new APIError(undefined, chunk.error as object, undefined, headersOf(incoming));
        yield chunk;
      }
    } catch (error) {
      if (signal?.aborted) return;
      if (error instanceof APIError || error instanceof UnreadableAnswerError) throw error;
      if (error instanceof SseEventTooLargeError) throw new UnreadableAnswerError(error.message);
      throw new APIConnectionError({
        message: `the upstream's stream broke: ${(error as Error).message}`,
        cause: error as Error,
      });
    } finally {
      signal?.removeEventListener('abort', onAbort);
      // The caller stopped early (or it failed): the rest of the answer is not read.
      if (!incoming.complete) incoming.destroy();
    }
  }
}
