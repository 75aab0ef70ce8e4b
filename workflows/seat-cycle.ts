// seatCycle: one turn of the chain cycle, started by a Temporal Schedule. Read the miners'
// commitments, offer every new pack hash to the seat (its first committer owns it), and set
// weights to the seated winner — every cycle, also when nothing changed, as far as the chain's
// rate limit allows. With no winner to weight (the seat is empty, the winner is deregistered, the
// write failed) the fallback uid gets all weight, so the validator's weights never go stale.
import { ActivityFailure, proxyActivities, upsertMemo } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import { chainNonRetryableTypes } from '../contracts/failure-types.ts';
import type { ChallengeOffer, SeatConfig } from '../contracts/seat.ts';
import type { SkippedCommitment } from '../chain/chain-client.ts';
import { describeWeights, type WeightsOutcome } from '../contracts/weights-outcome.ts';

export interface SeatCycleReport {
  block: number;
  commitments: number;
  /** Offers the seat accepted (new packs); refusals are counted only. */
  accepted: ChallengeOffer[];
  refused: number;
  /** Refusals by the per-hotkey limits (one pending challenge, least interval), with reasons. */
  limited: ChallengeOffer[];
  /** The first few skipped commitments with their reasons. */
  skipped: SkippedCommitment[];
  skippedCount: number;
  seatedHotkey: string | null;
  weights: WeightsOutcome;
}

const chain = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: {
    maximumAttempts: 5,
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    nonRetryableErrorTypes: [...chainNonRetryableTypes],
  },
});

export async function seatCycle(input: { seat: SeatConfig }): Promise<SeatCycleReport> {
  const { netuid } = input.seat;
  const read = await chain.readChallengers({ netuid });
  const { offers, incumbent } = await chain.offerChallenges({ seat: input.seat, challenges: read.challenges });
  const weights = await weightsFor(netuid, incumbent?.hotkey);
  const report: SeatCycleReport = {
    block: read.block,
    commitments: read.challenges.length,
    accepted: offers.filter((o) => o.accepted),
    refused: offers.filter((o) => !o.accepted).length,
    limited: offers.filter((o) => o.code !== undefined).slice(0, 20),
    skipped: read.skipped.slice(0, 10),
    skippedCount: read.skipped.length,
    seatedHotkey: incumbent?.hotkey ?? null,
    weights,
  };
  upsertMemo({
    block: report.block,
    accepted: report.accepted.length,
    skipped: report.skippedCount,
    weights: describeWeights(weights),
  });
  return report;
}

/** The winner's weights; the fallback's when there is no winner or its weights could not be set. */
async function weightsFor(netuid: number, hotkey: string | undefined): Promise<WeightsOutcome> {
  let because: { code: string; reason: string };
  if (!hotkey) because = { code: 'seat_empty', reason: 'the seat is empty' };
  else {
    try {
      const outcome = await chain.setSeatWeights({ netuid, hotkey });
      // Rate limited: weights were set recently and are not stale; the next cycle tries again.
      if (outcome.status === 'set' || outcome.code === 'rate_limited') return outcome;
      because = { code: outcome.code, reason: outcome.reason };
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      because = {
        code: 'weights_write_failed',
        reason: `setting the winner's weights failed: ${error.cause?.message ?? error.message}`,
      };
    }
  }
  try {
    return await chain.setFallbackWeights({ netuid, ...because });
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    return {
      status: 'skipped',
      code: 'fallback_failed',
      reason: `${because.reason}; the fallback weights failed too: ${error.cause?.message ?? error.message}`,
      revealed: 0,
    };
  }
}
