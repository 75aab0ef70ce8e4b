// Errors the gateway returns to a policy (and over HTTP): OpenAI-style, with a status, a type and
// whether retrying may help. One mapper from upstream failures, one to HTTP bodies.
import OpenAI from 'openai';

export type GatewayErrorType =
  | 'budget_exceeded'
  | 'model_not_allowed'
  | 'rate_limited'
  | 'upstream_error'
  | 'upstream_timeout'
  | 'context_length_exceeded'
  | 'invalid_request'
  | 'unauthorized';

export class GatewayError extends Error {
  constructor(readonly status: number, readonly type: GatewayErrorType, message: string, readonly retryable: boolean) {
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

export function fromUpstreamError(error: unknown, model: string): GatewayError {
  if (error instanceof GatewayError) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError) return new GatewayError(504, 'upstream_timeout', `${model} did not answer in time`, true);
  if (error instanceof OpenAI.APIConnectionError) return new GatewayError(502, 'upstream_error', `${model} could not be reached: ${error.message}`, true);
  if (error instanceof OpenAI.APIError) {
    const status = error.status ?? 502;
    const code = (error.code ?? (error.error as { code?: string } | undefined)?.code ?? '') as string;
    if (status === 429) return new GatewayError(429, 'rate_limited', `${model} is rate limited; retry later or use another model`, true);
    if (code === 'context_length_exceeded') return new GatewayError(400, 'context_length_exceeded', `${model}: ${error.message}`, false);
    if (status >= 500) return new GatewayError(502, 'upstream_error', `${model} failed upstream (${status})`, true);
    return new GatewayError(400, 'invalid_request', `${model} refused the request (${status}): ${error.message}`, false);
  }
  return new GatewayError(502, 'upstream_error', `${model}: ${(error as Error)?.message ?? String(error)}`, true);
}
