// Whether the incumbent could be evaluated beside a challenger, and whether it forfeits the seat.
// An incumbent whose re-evaluation cannot finish while the challenger's, on the same workers in
// the same challenge, did, is not evaluable: after a bounded number of such challenges in a row it
// loses the seat with a stated reason. Pure, called from workflow code (no clock, no I/O).
import type { ScoredEvaluation } from '../contracts/seat.ts';

/** Challenges in a row in which the incumbent could not be evaluated while the challenger could. */
export const defaultForfeitRounds = 2;

/** Rejections that say nothing about the pack (the judge was unreachable). */
export const transientRejectionCodes: readonly string[] = ['judge_unavailable'];

export function isTransientRejection(evaluation: ScoredEvaluation): boolean {
  const codes = evaluation.rejectionCodes ?? [];
  return (
    evaluation.status === 'rejected' &&
    codes.length > 0 &&
    codes.every((code) => transientRejectionCodes.includes(code))
  );
}

export type IncumbentAvailability =
  /** Every re-evaluation completed: the count starts again. */
  | { kind: 'evaluated' }
  /** Nothing can be said (the challenger did not complete either: the workers may be at fault). */
  | { kind: 'unknown' }
  /** The incumbent could not be evaluated while the challenger could. */
  | { kind: 'unevaluable'; rounds: number; forfeits: boolean; reason: string };

export function incumbentAvailability(input: {
  incumbent: readonly ScoredEvaluation[];
  challenger: readonly ScoredEvaluation[];
  /** Rounds counted before this challenge. */
  priorRounds: number;
  forfeitRounds?: number;
}): IncumbentAvailability {
  const limit = input.forfeitRounds ?? defaultForfeitRounds;
  if (input.incumbent.length === 0) return { kind: 'unknown' };
  if (input.incumbent.every((e) => e.status === 'completed')) return { kind: 'evaluated' };
  if (input.challenger.length === 0 || !input.challenger.every((e) => e.status === 'completed'))
    return { kind: 'unknown' };
  const failed = input.incumbent.filter((e) => e.status !== 'completed');
  if (failed.every(isTransientRejection)) return { kind: 'unknown' };
  const rounds = input.priorRounds + 1;
  const what = failed
    .map((e) => `${e.workflowId} ${e.status}${e.rejectionCodes?.length ? ` (${e.rejectionCodes.join(', ')})` : ''}`)
    .join('; ');
  const forfeits = rounds >= limit;
  const reason = forfeits
    ? `the incumbent forfeits the seat: its re-evaluation could not finish in ${rounds} challenges in a row while the challenger's completed on the same workers (${what})`
    : `no decision: the incumbent's re-evaluation could not finish while the challenger's completed (${what}); ${rounds} of ${limit} such challenges before the incumbent forfeits, and the challenger may be offered again`;
  return { kind: 'unevaluable', rounds, forfeits, reason };
}
