// Pack problems carry a stable code a miner can look up and a sentence saying what to fix.
export type PackErrorCode =
  | 'pack_not_found'
  | 'pack_too_large'
  | 'pack_hash_mismatch'
  | 'pack_invalid'
  | 'pack_fetch_failed';

export class PackError extends Error {
  constructor(readonly code: PackErrorCode, message: string, readonly retryable = false) {
    super(message);
    this.name = 'PackError';
  }
}
