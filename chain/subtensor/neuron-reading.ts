// The neurons of a subnet: from `NeuronInfoRuntimeApi.get_neurons_lite` when the runtime has it
// (one call, all fields at one block), else assembled from SubtensorModule storage (runtimes
// before runtime APIs were listed in metadata, such as spec 103).
import type { Neuron } from '../chain-client.ts';
import {
  codecArray,
  codecBoolean,
  codecNumber,
  readMany,
  runtimeCall,
  storageItem,
  type BlockView,
} from './chain-view.ts';

const raoPerTao = 1e9;

/** The fields of one `NeuronInfoLite` this client uses, already plain. */
export interface NeuronLite {
  hotkey: string;
  coldkey: string;
  uid: number;
  active: boolean;
  /** (coldkey, amount in rao) pairs; the neuron's stake is their sum. */
  stake: Array<[string, bigint]>;
  lastUpdate: number;
  validatorPermit: boolean;
}

export function neuronFromLite(lite: NeuronLite): Neuron {
  const stakeRao = lite.stake.reduce((sum, [, amount]) => sum + amount, 0n);
  return {
    uid: lite.uid,
    hotkey: lite.hotkey,
    coldkey: lite.coldkey,
    stakeTao: Number(stakeRao) / raoPerTao,
    validatorPermit: lite.validatorPermit,
    lastUpdate: lite.lastUpdate,
    active: lite.active,
  };
}

/** Reads a `PalletSubtensorRpcInfoNeuronInfoNeuronInfoLite` codec (typed by metadata, not by augmentation). */
export function neuronLiteFromCodec(codec: unknown): NeuronLite {
  const value = codec as Record<string, { toString(): string }>;
  return {
    hotkey: value.hotkey!.toString(),
    coldkey: value.coldkey!.toString(),
    uid: codecNumber(value.uid),
    active: codecBoolean(value.active),
    stake: codecArray<[{ toString(): string }, unknown]>(value.stake).map(([coldkey, amount]) => [
      coldkey.toString(),
      BigInt(codecNumber(amount)),
    ]),
    lastUpdate: codecNumber(value.lastUpdate),
    validatorPermit: codecBoolean(value.validatorPermit),
  };
}

export function hasNeuronRuntimeApi(view: BlockView): boolean {
  return runtimeCall(view, 'neuronInfoRuntimeApi', 'getNeuronsLite') !== undefined;
}

export async function readNeurons(view: BlockView, netuid: number): Promise<Neuron[]> {
  const getNeuronsLite = runtimeCall(view, 'neuronInfoRuntimeApi', 'getNeuronsLite');
  if (getNeuronsLite) {
    const result = await getNeuronsLite(netuid);
    return codecArray(result).map((codec) => neuronFromLite(neuronLiteFromCodec(codec)));
  }
  return readNeuronsFromStorage(view, netuid);
}

/** uid → hotkey from `Keys(netuid, uid)`. */
export async function readHotkeysByUid(view: BlockView, netuid: number): Promise<Map<number, string>> {
  const keys = storageItem(view, 'subtensorModule', 'keys');
  if (!keys) return new Map();
  const entries = await keys.entries(netuid);
  return new Map(entries.map(([key, hotkey]) => [codecNumber(key.args[1]), hotkey.toString()]));
}

/**
 * Storage fallback. Stake: `TotalHotkeyAlpha(hotkey, netuid)` on dynamic-TAO runtimes,
 * `TotalHotkeyStake(hotkey)` before them, in rao either way; coldkey from `Owner(hotkey)`.
 */
export async function readNeuronsFromStorage(view: BlockView, netuid: number): Promise<Neuron[]> {
  const hotkeys = await readHotkeysByUid(view, netuid);
  const uids = [...hotkeys.keys()].sort((a, b) => a - b);
  const perUid = async (item: string): Promise<unknown[]> => {
    const entry = storageItem(view, 'subtensorModule', item);
    return entry ? codecArray(await entry(netuid)) : [];
  };
  const [permits, lastUpdates, actives] = await Promise.all([
    perUid('validatorPermit'),
    perUid('lastUpdate'),
    perUid('active'),
  ]);
  const hotkeyList = uids.map((uid) => hotkeys.get(uid)!);
  const totalHotkeyAlpha = storageItem(view, 'subtensorModule', 'totalHotkeyAlpha');
  const totalHotkeyStake = storageItem(view, 'subtensorModule', 'totalHotkeyStake');
  const owner = storageItem(view, 'subtensorModule', 'owner');
  const none: undefined[] = hotkeyList.map(() => undefined);
  const [stakes, owners] = await Promise.all([
    totalHotkeyAlpha
      ? readMany(
          view,
          totalHotkeyAlpha,
          hotkeyList.map((hotkey) => [hotkey, netuid]),
        )
      : totalHotkeyStake
        ? readMany(
            view,
            totalHotkeyStake,
            hotkeyList.map((hotkey) => [hotkey]),
          )
        : Promise.resolve(none),
    owner
      ? readMany(
          view,
          owner,
          hotkeyList.map((hotkey) => [hotkey]),
        )
      : Promise.resolve(none),
  ]);
  return uids.map((uid, index) => ({
    uid,
    hotkey: hotkeyList[index]!,
    coldkey: owners[index]?.toString(),
    stakeTao: stakes[index] === undefined ? 0 : codecNumber(stakes[index]) / raoPerTao,
    validatorPermit: permits[uid] !== undefined && codecBoolean(permits[uid]),
    lastUpdate: lastUpdates[uid] !== undefined ? codecNumber(lastUpdates[uid]) : 0,
    active: actives[uid] !== undefined && codecBoolean(actives[uid]),
  }));
}
