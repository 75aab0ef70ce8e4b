// What the gateway needs of a model upstream: the OpenAI client's `chat.completions.create`, with
// an abort signal and extra headers. The worker's client (http-chat-upstream.ts) provides it, and
// so does the OpenAI SDK's client, which tests, the probe's bland upstream and tape replays use.
// Either way a failure is one of the SDK's error classes, which gateway-error.ts maps to blame and billing.

export interface UpstreamRequestOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** This call's timeout in ms, over the client's own. */
  timeout?: number;
  /** The SDK client's own retries; callers that count attempts pass 0 (the worker's client never retries). */
  maxRetries?: number;
}

export interface ChatUpstream {
  chat: { completions: { create(body: never, options?: UpstreamRequestOptions): PromiseLike<unknown> } };
}

// The request's JSON text when the caller has it already: the gateway builds it from a billed part it
// serialized once for the meter (model-gateway.ts), and serializing a long prompt again per attempt
// was a tenth of a millisecond each time. A client that does not look (the OpenAI SDK's) serializes
// the body itself; both texts parse to the same body.
const bodyTexts = new WeakMap<object, string>();

/** Marks `body` with its JSON text; the body must not change afterwards. */
export function withBodyText<T extends object>(body: T, text: string): T {
  bodyTexts.set(body, text);
  return body;
}

/** The JSON text withBodyText gave this body, if any. */
export function bodyTextOf(body: object): string | undefined {
  return bodyTexts.get(body);
}
