// seatCycle: one turn of the chain cycle, started by a Temporal Schedule. Read the miners'
// commitments, offer every new pack hash to the seat (its first committer owns it), and set
// weights to the seated winner — every cycle, also when nothing changed, as far as the chain's
// rate limit allows.
import { proxyActivities, upsertMemo } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import { chainNonRetryableTypes } from '../contracts/failure-types.ts';
import type { ChallengeOffer, SeatConfig } from '../contracts/seat.ts';
import type { SkippedCommitment } from '../chain/chain-client.ts';
import type { WeightsOutcome } from '../activities/seat-activities.ts';

export interface SeatCycleReport {
  block: number;
  commitments: number;
  /** Offers the seat accepted (new packs); refusals are counted only. */
  accepted: ChallengeOffer[];
  refused: number;
  /** The first few skipped commitments with their reasons. */
  skipped: SkippedCommitment[];
  skippedCount: number;
  seatedHotkey: string | null;
  weights: WeightsOutcome;
}

const chain = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 5, initialInterval: '2 seconds', backoffCoefficient: 2, nonRetryableErrorTypes: [...chainNonRetryableTypes] },
});

export async function seatCycle(input: { seat: SeatConfig }): Promise<SeatCycleReport> {
  const { netuid } = input.seat;
  const read = await chain.readChallengers({ netuid });
  const { offers, incumbent } = await chain.offerChallenges({ seat: input.seat, challenges: read.challenges });
  const weights: WeightsOutcome = incumbent
    ? await chain.setSeatWeights({ netuid, hotkey: incumbent.hotkey })
    : { status: 'skipped', code: 'seat_empty', reason: 'the seat is empty: no weights to set yet', revealed: 0 };
  const report: SeatCycleReport = {
    block: read.block,
    commitments: read.challenges.length,
    accepted: offers.filter((o) => o.accepted),
    refused: offers.filter((o) => !o.accepted).length,
    skipped: read.skipped.slice(0, 10),
    skippedCount: read.skipped.length,
    seatedHotkey: incumbent?.hotkey ?? null,
    weights,
  };
  upsertMemo({ block: report.block, accepted: report.accepted.length, skipped: report.skippedCount, weights: weights.status === 'set' ? `uid ${weights.uid} at block ${weights.block}` : weights.reason });
  return report;
}
