// The hyperparameters that govern setting weights, read from SubtensorModule storage at one
// block. Storage items the runtime does not have fall back to the defaults below.
import type { WeightSettings } from '../chain-client.ts';
import { codecBoolean, codecNumber, storageItem, type BlockView } from './chain-view.ts';

/**
 * Used only when the runtime lacks the storage item (a present item returns its own declared
 * default when unset). Commit-reveal items are missing on spec 103, which had no commit-reveal,
 * so it is off there; RevealPeriodEpochs defaults to 1, its value when it was introduced.
 * The others exist on every runtime we know; their fallbacks are spec 424's declared defaults.
 */
export const missingStorageDefaults = {
  tempo: 360,
  weightsSetRateLimit: 100,
  weightsVersionKey: 0,
  minAllowedWeights: 1024,
  maxWeightsLimit: 65535,
  commitRevealWeightsEnabled: false,
  revealPeriodEpochs: 1,
  kappa: 32767,
} as const;

export async function readWeightSettings(view: BlockView, netuid: number, block: number): Promise<WeightSettings> {
  const number = async (item: string, fallback: number, ...args: unknown[]): Promise<number> => {
    const entry = storageItem(view, 'subtensorModule', item);
    return entry ? codecNumber(await entry(...args)) : fallback;
  };
  const commitRevealEntry = storageItem(view, 'subtensorModule', 'commitRevealWeightsEnabled');
  const versionEntry = storageItem(view, 'subtensorModule', 'commitRevealWeightsVersion');
  const [
    tempo,
    weightsRateLimit,
    weightsVersionKey,
    minAllowedWeights,
    maxWeightsLimit,
    revealPeriodEpochs,
    kappa,
    commitRevealEnabled,
    commitRevealVersion,
  ] = await Promise.all([
    number('tempo', missingStorageDefaults.tempo, netuid),
    number('weightsSetRateLimit', missingStorageDefaults.weightsSetRateLimit, netuid),
    number('weightsVersionKey', missingStorageDefaults.weightsVersionKey, netuid),
    number('minAllowedWeights', missingStorageDefaults.minAllowedWeights, netuid),
    number('maxWeightsLimit', missingStorageDefaults.maxWeightsLimit, netuid),
    number('revealPeriodEpochs', missingStorageDefaults.revealPeriodEpochs, netuid),
    number('kappa', missingStorageDefaults.kappa, netuid),
    commitRevealEntry
      ? commitRevealEntry(netuid).then(codecBoolean)
      : Promise.resolve(missingStorageDefaults.commitRevealWeightsEnabled),
    // A plain (global) value on spec 424; absent before versioned commit-reveal.
    versionEntry ? versionEntry().then(codecNumber) : Promise.resolve(undefined),
  ]);
  return {
    block,
    tempo,
    weightsRateLimit,
    weightsVersionKey,
    minAllowedWeights,
    maxWeightsLimit,
    commitRevealEnabled,
    commitRevealVersion,
    revealPeriodEpochs,
    kappa: kappa / 65535,
  };
}
