// Builds a `commit_timelocked_weights` call from what the chain says at one block: the beacon
// (Drand.BeaconConfig), the block's time (Timestamp.now), the next epoch start, and the weight
// settings already read for the preflight.
import type { WeightSettings } from '../chain-client.ts';
import { ChainError } from '../chain-error.ts';
import { codecNumber, runtimeCall, storageItem, type BlockView } from './chain-view.ts';
import type { CallPlan } from './subtensor-calls.ts';
import {
  commitTimelockedWeightsCall,
  encryptWeightsCommit,
  quicknetBeacon,
  type DrandBeacon,
} from './timelock-commit.ts';
import { firstRevealBlock, revealRoundFor } from './timelock-reveal-round.ts';

export interface TimelockedCommitRequest {
  view: BlockView;
  block: number;
  signer: string;
  netuid: number;
  uids: number[];
  values: number[];
  settings: WeightSettings;
  /** Used when the runtime has no Timestamp pallet. */
  nowMs: number;
}

export interface TimelockedCommitPlan {
  plan: CallPlan;
  revealRound: number;
  /** Estimated first block of the epoch in which the chain decrypts and applies the weights. */
  revealFromBlock: number;
}

export async function prepareTimelockedCommit(request: TimelockedCommitRequest): Promise<TimelockedCommitPlan> {
  const { view, block, signer, netuid, uids, values, settings } = request;
  const version = settings.commitRevealVersion ?? 4;
  const [beacon, currentBlockTimeMs, nextEpochStartBlock] = await Promise.all([
    readBeacon(view),
    readBlockTimeMs(view),
    readNextEpochStart(view, netuid),
  ]);
  const revealFromBlock = firstRevealBlock({
    currentBlock: block,
    netuid,
    tempo: settings.tempo,
    revealPeriodEpochs: settings.revealPeriodEpochs,
    nextEpochStartBlock,
  });
  const revealRound = revealRoundFor({
    currentBlock: block,
    currentBlockTimeMs: currentBlockTimeMs ?? request.nowMs,
    revealFromBlock,
    beacon,
  });
  const commit = encryptWeightsCommit({
    hotkey: signer,
    uids,
    values,
    versionKey: settings.weightsVersionKey,
    revealRound,
    drandPublicKey: beacon.publicKeyHex,
  });
  return { plan: commitTimelockedWeightsCall(netuid, commit, revealRound, version), revealRound, revealFromBlock };
}

/** The beacon the chain verifies pulses against; quicknet (the pallet's default) if unreadable. */
async function readBeacon(view: BlockView): Promise<DrandBeacon> {
  const entry = storageItem(view, 'drand', 'beaconConfig');
  if (!entry) return quicknetBeacon;
  const config = (await entry()) as unknown as {
    publicKey: { toHex(): string };
    period: unknown;
    genesisTime: unknown;
  };
  const beacon = {
    publicKeyHex: config.publicKey.toHex(),
    periodSec: codecNumber(config.period),
    genesisTimeSec: codecNumber(config.genesisTime),
  };
  if (beacon.publicKeyHex.length !== 2 + 96 * 2 || beacon.periodSec <= 0) {
    throw new ChainError(
      'bad_data',
      'bad_drand_beacon_config',
      `Drand.BeaconConfig has an unusable public key or period (${beacon.publicKeyHex}, ${beacon.periodSec} s)`,
    );
  }
  return beacon;
}

async function readBlockTimeMs(view: BlockView): Promise<number | undefined> {
  const entry = storageItem(view, 'timestamp', 'now');
  const value = entry ? codecNumber(await entry()) : 0;
  return value > 0 ? value : undefined;
}

async function readNextEpochStart(view: BlockView, netuid: number): Promise<number | undefined> {
  const call = runtimeCall(view, 'subnetInfoRuntimeApi', 'getNextEpochStartBlock');
  if (!call) return undefined;
  const option = (await call(netuid)) as unknown as { isSome?: boolean; unwrap?: () => unknown };
  if (option.isSome === undefined) return codecNumber(option);
  return option.isSome ? codecNumber(option.unwrap!()) : undefined;
}
