// What a cycle did about weights: set (for the seated winner, or the fallback uid and why), or
// skipped with a reason. Plain JSON: it crosses the Temporal boundary in the cycle's report.

/** Why weights went to the fallback uid, and where that uid came from. */
export interface FallbackNote {
  /** What kept the winner from being weighted: seat_empty, winner_not_registered, weights_write_failed, a chain error
   * code… */
  code: string;
  reason: string;
  uidSource: 'configured' | 'subnet_owner' | 'uid_0';
}

export type WeightsOutcome =
  | {
      status: 'set';
      block: number;
      uid: number;
      hotkey: string;
      mode: string;
      transaction: string;
      revealed: number;
      fallback?: FallbackNote;
    }
  | { status: 'skipped'; reason: string; code: string; retryAtBlock?: number; revealed: number };

/** One line for logs, the cycle's memo and `trl seat`. */
export function describeWeights(weights: WeightsOutcome): string {
  if (weights.status === 'skipped') return `not set: ${weights.reason}`;
  const at = `uid ${weights.uid} at block ${weights.block}`;
  return weights.fallback
    ? `fallback ${at} (${weights.fallback.uidSource.replace('_', ' ')}): ${weights.fallback.reason}`
    : at;
}
