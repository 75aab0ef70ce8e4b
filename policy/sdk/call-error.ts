// The error `ctx.call` rejects with. The runner builds its own error object (it is plain JS and does
// not import the SDK), so `instanceof PolicyCallError` checks a brand rather than the prototype chain.
import type { CallErrorType } from './types.ts';

/** The brand the runner puts on call errors; shared by name, not by module identity. */
export const policyCallErrorBrand = Symbol.for('trl.policy-call-error');

export class PolicyCallError extends Error {
  /** HTTP-like status: 429 rate limited, 5xx upstream trouble, 400 bad request, 402 budget. */
  readonly status: number;
  readonly type: CallErrorType;
  /** True when trying again (or another model) may succeed: 429, 5xx, timeouts. */
  readonly retryable: boolean;

  constructor(status: number, type: CallErrorType, message: string, retryable: boolean) {
    super(message);
    this.name = 'PolicyCallError';
    this.status = status;
    this.type = type;
    this.retryable = retryable;
    Object.defineProperty(this, policyCallErrorBrand, { value: true });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    // Subclasses keep ordinary instanceof semantics.
    if (this !== PolicyCallError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return isPolicyCallError(value);
  }
}

export function isPolicyCallError(value: unknown): value is PolicyCallError {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<PropertyKey, unknown>;
  return (
    candidate[policyCallErrorBrand] === true &&
    typeof candidate.status === 'number' &&
    typeof candidate.type === 'string' &&
    typeof candidate.retryable === 'boolean'
  );
}

/** Whether another attempt (same or other model) is worth it. Unknown errors count as not retryable. */
export function isRetryableError(value: unknown): boolean {
  return isPolicyCallError(value) && value.retryable;
}
