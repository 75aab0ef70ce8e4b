// Errors the gateway returns to a policy (and over HTTP): OpenAI-style, with a status, a type and
// whether retrying may help. One mapper from upstream failures, one to HTTP bodies, and the two
// facts the meter needs about an upstream failure: retried by the gateway, or refused unbilled.
import OpenAI from 'openai';

export type GatewayErrorType =
  /** HTTP 402: the call does not fit the episode's cap (or the episode is closed after an overshoot). */
  | 'cap'
  | 'model_not_allowed'
  | 'rate_limited'
  | 'upstream_error'
  | 'upstream_timeout'
  /** The upstream refused our credentials or account (401/402/403): the validator's problem, not the policy's. */
  | 'upstream_unavailable'
  | 'context_length_exceeded'
  | 'invalid_request'
  | 'unauthorized'
  /** HTTP 403: the policy carried the scenario's hidden content into a model request (gateway/injection/). */
  | 'injected_scenario_content'
  /** The call was left by the policy (its client went, or the episode ended with it running): the policy's. */
  | 'abandoned'
  /** The validator cancelled the call (the upstream billed another beyond its bound): not the policy's. */
  | 'cancelled'
  /** The upstream billed a call beyond the bound its tokenizer allows (meter/prompt-bound.ts): the upstream's fault. */
  | 'upstream_overbilled';

export class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly type: GatewayErrorType,
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'GatewayError';
  }

  toJSON(): { status: number; type: string; message: string; retryable: boolean } {
    return { status: this.status, type: this.type, message: this.message, retryable: this.retryable };
  }

  toHttpBody(): { error: { message: string; type: string; code: string; param: null } } {
    return { error: { message: this.message, type: this.type, code: this.type, param: null } };
  }
}

/** The upstream's HTTP status of a failed call, when it answered at all. */
export function upstreamStatusOf(error: unknown): number | undefined {
  return error instanceof OpenAI.APIError && typeof error.status === 'number' ? error.status : undefined;
}

/** 429 and 503: transient, retried by the gateway with growing back-off; a policy never sees them unless retries run
 * out. */
export function isRetriedByGateway(error: unknown): boolean {
  const status = upstreamStatusOf(error);
  return status === 429 || status === 503;
}

// Upstream answers that refuse a request before any work: the upstream did not bill them, so the
// reservation is released. Everything else after the request left (5xx, timeouts, broken
// connections) is charged at the reservation, since the upstream may have billed up to it.
const unbilledRefusalStatuses: ReadonlySet<number> = new Set([400, 401, 403, 404, 422, 429]);
// Connection failures that happen before a byte is sent.
const neverSentCodes: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

export function wasRefusedUnbilled(error: unknown): boolean {
  const status = upstreamStatusOf(error);
  if (status !== undefined) return unbilledRefusalStatuses.has(status);
  if (error instanceof OpenAI.APIConnectionTimeoutError) return false;
  if (error instanceof OpenAI.APIConnectionError) {
    let cause: unknown = error.cause;
    for (let depth = 0; depth < 4 && cause && typeof cause === 'object'; depth++) {
      const code = (cause as { code?: unknown }).code;
      if (typeof code === 'string' && neverSentCodes.has(code)) return true;
      cause = (cause as { cause?: unknown }).cause;
    }
  }
  return false;
}

/** The upstream's request id of a failed call: the x-request-id header, else the error body's id. */
export function upstreamRequestIdOf(error: unknown): string | undefined {
  if (!(error instanceof OpenAI.APIError)) return undefined;
  if (typeof error.requestID === 'string' && error.requestID) return error.requestID;
  const id = (error.error as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : undefined;
}

// 401/402/403 from the upstream are about the validator's key, account or billing: no policy caused them.
const upstreamAccountStatuses: ReadonlySet<number> = new Set([401, 402, 403]);

/**
 * Gateway error types that are the infrastructure's fault (contracts/blame.ts): the upstream was
 * rate limited past the gateway's retries, failed, timed out or refused the validator's account.
 * The policy is told (it may handle them); the scenario's blame follows the count of these.
 */
export const upstreamInfrastructureErrorTypes: ReadonlySet<GatewayErrorType> = new Set([
  'rate_limited',
  'upstream_error',
  'upstream_timeout',
  'upstream_unavailable',
  'upstream_overbilled',
  // Cut because the upstream overbilled another call (counted once, as upstream_overbilled).
  'cancelled',
]);

export function isUpstreamInfrastructureFailure(error: unknown): boolean {
  return error instanceof GatewayError && upstreamInfrastructureErrorTypes.has(error.type);
}

export function fromUpstreamError(error: unknown, model: string): GatewayError {
  if (error instanceof GatewayError) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError)
    return new GatewayError(504, 'upstream_timeout', `${model} did not answer in time`, true);
  if (error instanceof OpenAI.APIConnectionError)
    return new GatewayError(502, 'upstream_error', `${model} could not be reached: ${error.message}`, true);
  if (error instanceof OpenAI.APIError) {
    const status = error.status ?? 502;
    const code = (error.code ?? (error.error as { code?: string } | undefined)?.code ?? '') as string;
    if (status === 429)
      return new GatewayError(429, 'rate_limited', `${model} is rate limited; retry later or use another model`, true);
    // OpenAI's code, or llama.cpp's error type (its `code` is the HTTP status).
    if (code === 'context_length_exceeded' || error.type === 'exceed_context_size_error')
      return new GatewayError(400, 'context_length_exceeded', `${model}: ${error.message}`, false);
    if (status >= 500) return new GatewayError(502, 'upstream_error', `${model} failed upstream (${status})`, true);
    if (upstreamAccountStatuses.has(status))
      return new GatewayError(
        502,
        'upstream_unavailable',
        `${model} is unavailable upstream (${status}: the validator's account or key); try another model`,
        true,
      );
    return new GatewayError(
      400,
      'invalid_request',
      `${model} refused the request (${status}): ${error.message}`,
      false,
    );
  }
  return new GatewayError(502, 'upstream_error', `${model}: ${(error as Error)?.message ?? String(error)}`, true);
}
