// Which drand round to encrypt timelocked weights to. Subtensor (spec 424) files a commit under
// the subnet's epoch counter E at inclusion and, from the block epoch E + RevealPeriodEpochs fires
// until the next epoch fires, tries every block to decrypt it with the pulse of the commit's
// round; if the pulse never arrives in that epoch the commit is dropped. So the round must be
// published shortly after the reveal epoch starts: earlier leaks the weights early, later than
// the epoch's end loses them. A commit included in the very block an epoch fires is filed one
// epoch later than estimated here; it is still revealed, but its pulse is public an epoch early.
// Pure; the inputs come from the chain.
import { epochIndex, firstBlockOfEpoch } from './commit-reveal.ts';
import { quicknetBeacon, type DrandBeacon } from './timelock-commit.ts';

/** Finney's target block time. */
export const subtensorBlockTimeMs = 12_000;

/**
 * Aim for the pulse a few blocks into the reveal epoch (bittensor-drand's `generate_commit` uses
 * 3): the reveal is retried each block, and aiming later never makes the chain reveal early.
 */
export const revealSecurityBlocks = 3;

export interface FirstRevealBlockInput {
  currentBlock: number;
  netuid: number;
  tempo: number;
  revealPeriodEpochs: number;
  /** `SubnetInfoRuntimeApi.get_next_epoch_start_block` where the runtime has it. */
  nextEpochStartBlock?: number;
}

/**
 * First block of the reveal epoch for a commit included after `currentBlock`. Spec 424 fires
 * epochs every `tempo` blocks from LastEpochBlock (run_coinbase.rs `get_next_epoch_start_block`),
 * so the reveal epoch starts RevealPeriodEpochs - 1 tempos after the next start. Runtimes without
 * that API use the tempo formula, as the bittensor SDK does.
 */
export function firstRevealBlock(input: FirstRevealBlockInput): number {
  const { currentBlock, netuid, tempo, revealPeriodEpochs, nextEpochStartBlock } = input;
  if (nextEpochStartBlock !== undefined) return nextEpochStartBlock + Math.max(0, revealPeriodEpochs - 1) * tempo;
  return firstBlockOfEpoch(epochIndex(currentBlock, netuid, tempo) + revealPeriodEpochs, netuid, tempo);
}

export interface RevealRoundInput {
  currentBlock: number;
  /** Wall-clock time of `currentBlock` (its Timestamp.now), in milliseconds. */
  currentBlockTimeMs: number;
  revealFromBlock: number;
  blockTimeMs?: number;
  securityBlocks?: number;
  beacon?: DrandBeacon;
}

/**
 * The latest round published by the time block `revealFromBlock + securityBlocks` is expected:
 * floor((target - genesis) / period), at least 1. Rounding down, like bittensor-drand, keeps
 * the pulse from arriving after the aimed block.
 */
export function revealRoundFor(input: RevealRoundInput): number {
  const blockTimeMs = input.blockTimeMs ?? subtensorBlockTimeMs;
  const beacon = input.beacon ?? quicknetBeacon;
  const blocksAhead = Math.max(
    0,
    input.revealFromBlock + (input.securityBlocks ?? revealSecurityBlocks) - input.currentBlock,
  );
  const targetMs = input.currentBlockTimeMs + blocksAhead * blockTimeMs;
  const round = Math.floor((targetMs - beacon.genesisTimeSec * 1000) / (beacon.periodSec * 1000));
  return Math.max(1, round);
}
