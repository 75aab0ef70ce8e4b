// Errors from the chain, classified where they happen: a name (pallet error or preflight reason),
// whether a retry can help, and a message that says what to do.
// Kinds: preflight (our own checks refused before sending: not registered, rate limited, …),
// dispatch (the runtime refused the call: a pallet error, decoded by name), invalid_transaction
// (the pool refused it: 1010 and friends), connection (the node did not answer), bad_data (the
// chain returned something we cannot parse). The list is contracts/failure-types.ts's.
import type { ChainErrorKind } from '../contracts/failure-types.ts';

export type { ChainErrorKind };

export class ChainError extends Error {
  readonly kind: ChainErrorKind;
  /** e.g. `SubtensorModule.SettingWeightsTooFast`, `not_registered`, `Custom(6)`. */
  readonly code: string;
  readonly retryable: boolean;
  /** For rate limits: the first block at which trying again can succeed. */
  readonly retryAtBlock?: number;

  constructor(
    kind: ChainErrorKind,
    code: string,
    message: string,
    options: { retryable?: boolean; retryAtBlock?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ChainError';
    this.kind = kind;
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.retryAtBlock = options.retryAtBlock;
  }
}
