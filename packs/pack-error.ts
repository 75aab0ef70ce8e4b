// Pack problems carry a stable code a miner can look up and a sentence saying what to fix.
import type { PackFailureType } from '../contracts/failure-types.ts';

export type PackErrorCode = PackFailureType;

export class PackError extends Error {
  constructor(
    readonly code: PackErrorCode,
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'PackError';
  }
}
