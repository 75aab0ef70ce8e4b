// What a pack can grow in an activity result — notes, faults, rejection reasons, per-model costs —
// cut to fixed bounds here, so no result nears Temporal's payload limit whatever a pack does
// (DESIGN invariant 6: ≤ 256 KB). The full records stay in the run's artifacts.
import type { AgentRunResult, Rejection } from '../contracts/results.ts';
import { capList, capRecords, noteBounds, truncateUtf8 } from '../common/bounded-list.ts';

/** The bound every activity result and workflow input is held to. */
export const maxPayloadBytes = 256 * 1024;

const faultBounds = { ...noteBounds, maxItemBytes: 1000, maxTotalBytes: 32 * 1024 };
const rejectionBounds = { ...noteBounds, maxItemBytes: 2000, maxTotalBytes: 32 * 1024 };
/** Models are allowlisted, so a few keys; the bound only guards against a catalogue mistake. */
const maxCostModels = 64;

export function boundAgentRunResult(result: AgentRunResult): AgentRunResult {
  const { policy } = result;
  return {
    ...result,
    outputNotes: capList(result.outputNotes),
    policy: policy && {
      ...policy,
      costByModelUsd:
        policy.costByModelUsd &&
        Object.fromEntries(
          Object.entries(policy.costByModelUsd)
            .slice(0, maxCostModels)
            .map(([model, usd]) => [truncateUtf8(model, 200), usd]),
        ),
      faults: capRecords(policy.faults, faultBounds, (more) => ({ kind: 'truncated', message: `+${more} more` })),
    },
  };
}

export function boundRejections(reasons: readonly Rejection[]): Rejection[] {
  return capRecords(reasons, rejectionBounds, (more) => ({
    code: 'more',
    message: `+${more} more (all in the report)`,
  }));
}
