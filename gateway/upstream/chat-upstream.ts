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
