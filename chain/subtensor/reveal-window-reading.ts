// Where a commit-reveal v2 commit's reveal falls, read back from the block that included it, and
// the runtime's epoch counter. Spec 424 counts epochs in storage; older runtimes by the tempo formula.
import type { WeightSettings } from '../chain-client.ts';
import { codecArray, codecNumber, runtimeCall, storageItem, type BlockView } from './chain-view.ts';
import { epochIndex, netuidIndex, revealWindow, type RevealWindow } from './commit-reveal.ts';
import type { Inclusion } from './extrinsic-submission.ts';

/**
 * Spec 424 tags a commit with the `SubnetEpochIndex` counter (read back from `WeightCommits`
 * for our hash) and reveals in epoch commit + RevealPeriodEpochs; the reveal blocks are then an
 * estimate from the next epoch start. Older runtimes use the tempo formula throughout.
 */
export async function revealWindowAfterCommit(
  view: BlockView,
  signer: string,
  netuid: number,
  hash: string,
  inclusion: Inclusion,
  settings: WeightSettings,
): Promise<{ window: RevealWindow; epochSource: 'counter' | 'tempo' }> {
  const { tempo, revealPeriodEpochs } = settings;
  const counterEpoch = await readEpochCounter(view, netuid);
  if (counterEpoch === undefined)
    return {
      window: revealWindow(epochIndex(inclusion.block, netuid, tempo), netuid, tempo, revealPeriodEpochs),
      epochSource: 'tempo',
    };
  let commitEpoch = counterEpoch;
  const commits = storageItem(view, 'subtensorModule', 'weightCommits');
  if (commits) {
    const ours = optionalArray<[{ toHex(): string }, unknown]>(await commits(netuidIndex(netuid), signer)).find(
      ([commit]) => commit.toHex() === hash,
    );
    if (ours) commitEpoch = codecNumber(ours[1]);
  }
  const window = revealWindow(commitEpoch, netuid, tempo, revealPeriodEpochs);
  const nextEpochStart = runtimeCall(view, 'subnetInfoRuntimeApi', 'getNextEpochStartBlock');
  const next = nextEpochStart ? optionalNumber(await nextEpochStart(netuid)) : undefined;
  if (next !== undefined) {
    window.revealFromBlock = next + Math.max(0, revealPeriodEpochs - 1) * (tempo + 1);
    window.revealUntilBlock = window.revealFromBlock + tempo;
  }
  return { window, epochSource: 'counter' };
}

/** `SubnetEpochIndex(netuid)` where the runtime keeps an epoch counter (spec 424), else undefined. */
export async function readEpochCounter(view: BlockView, netuid: number): Promise<number | undefined> {
  const counter = storageItem(view, 'subtensorModule', 'subnetEpochIndex');
  return counter ? codecNumber(await counter(netuid)) : undefined;
}

function optionalArray<T>(value: unknown): T[] {
  const option = value as { isSome?: boolean; unwrap?: () => unknown };
  if (option.isSome === undefined) return codecArray<T>(value);
  return option.isSome ? codecArray<T>(option.unwrap!()) : [];
}

function optionalNumber(value: unknown): number | undefined {
  const option = value as { isSome?: boolean; unwrap?: () => unknown };
  if (option.isSome === undefined) return codecNumber(value);
  return option.isSome ? codecNumber(option.unwrap!()) : undefined;
}
