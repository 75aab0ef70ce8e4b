// The weights every validator of a subnet has set, read from SubtensorModule storage at one block,
// with each validator's hotkey beside its uid; validators with no weights are left out.
import type { WeightRow } from '../chain-client.ts';
import { codecArray, codecNumber, storageItem, type BlockView } from './chain-view.ts';
import { netuidIndex } from './commit-reveal.ts';
import { readHotkeysByUid } from './neuron-reading.ts';

export async function readWeightRows(view: BlockView, netuid: number): Promise<WeightRow[]> {
  const weights = storageItem(view, 'subtensorModule', 'weights');
  if (!weights) return [];
  const [hotkeys, entries] = await Promise.all([readHotkeysByUid(view, netuid), weights.entries(netuidIndex(netuid))]);
  return entries
    .map(([key, row]) => {
      const validatorUid = codecNumber(key.args[1]);
      return {
        validatorUid,
        validatorHotkey: hotkeys.get(validatorUid) ?? '',
        weights: codecArray<[unknown, unknown]>(row).map(([uid, value]) => ({
          uid: codecNumber(uid),
          value: codecNumber(value),
        })),
      };
    })
    .filter((row) => row.weights.length > 0)
    .sort((a, b) => a.validatorUid - b.validatorUid);
}
