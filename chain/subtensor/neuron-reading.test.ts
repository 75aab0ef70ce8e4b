// A `get_neurons_lite` result encoded by hand in the layout the finney metadata (spec 424)
// declares for `NeuronInfoLite`, decoded through that metadata and mapped to neurons.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeAddress } from '@polkadot/util-crypto';
import { finneyMetadataFile, requireChainTestFile } from './testing/chain-test-data.ts';
import { neuronFromLite, neuronLiteFromCodec } from './neuron-reading.ts';
import { loadOfflineRuntime } from './testing/offline-metadata.ts';
import { bool, compact, hex, u128, u16, u32, u64, u8, vector } from './testing/scale-by-hand.ts';

const runtime = loadOfflineRuntime(requireChainTestFile(finneyMetadataFile));
const account = (fill: number) => Array<number>(32).fill(fill);

interface HandNeuron {
  hotkey: number;
  coldkey: number;
  uid: number;
  active: boolean;
  stake: Array<[number, bigint]>;
  lastUpdate: number;
  validatorPermit: boolean;
}

/** Field order of PalletSubtensorRpcInfoNeuronInfoNeuronInfoLite, as listed in the metadata. */
function neuronLiteBytes(neuron: HandNeuron): number[] {
  const axon = [...u64(100), ...u32(1), ...u128(0x7f000001), ...u16(8091), ...u8(4), ...u8(0), ...u8(0), ...u8(0)];
  const prometheus = [...u64(0), ...u32(0), ...u128(0), ...u16(0), ...u8(0)];
  return [
    ...account(neuron.hotkey),
    ...account(neuron.coldkey),
    ...compact(neuron.uid),
    ...compact(11),
    ...bool(neuron.active),
    ...axon,
    ...prometheus,
    ...vector(neuron.stake.map(([coldkey, rao]) => [...account(coldkey), ...compact(rao)])),
    ...compact(10),
    ...compact(123_456_789n),
    ...compact(20),
    ...compact(30),
    ...compact(40),
    ...compact(50),
    ...compact(60),
    ...compact(neuron.lastUpdate),
    ...bool(neuron.validatorPermit),
    ...compact(70),
  ];
}

test('a hand-encoded Vec<NeuronInfoLite> decodes to neurons with stake summed in TAO', () => {
  const validator: HandNeuron = {
    hotkey: 1,
    coldkey: 2,
    uid: 0,
    active: true,
    stake: [
      [2, 1_500_000_000_000n],
      [3, 250_000_000n],
    ],
    lastUpdate: 6_000_123,
    validatorPermit: true,
  };
  const miner: HandNeuron = {
    hotkey: 4,
    coldkey: 5,
    uid: 300,
    active: false,
    stake: [],
    lastUpdate: 0,
    validatorPermit: false,
  };
  const bytes = hex([...compact(2), ...neuronLiteBytes(validator), ...neuronLiteBytes(miner)]);
  const decoded = runtime.registry.createType('Vec<PalletSubtensorRpcInfoNeuronInfoNeuronInfoLite>', bytes);
  assert.equal(decoded.toHex(), bytes, 'the hand layout is the metadata layout');

  const neurons = Array.from(decoded as unknown as Iterable<unknown>, (codec) =>
    neuronFromLite(neuronLiteFromCodec(codec)),
  );
  assert.deepEqual(neurons, [
    {
      uid: 0,
      hotkey: encodeAddress(new Uint8Array(account(1)), 42),
      coldkey: encodeAddress(new Uint8Array(account(2)), 42),
      stakeTao: 1500.25,
      validatorPermit: true,
      lastUpdate: 6_000_123,
      active: true,
    },
    {
      uid: 300,
      hotkey: encodeAddress(new Uint8Array(account(4)), 42),
      coldkey: encodeAddress(new Uint8Array(account(5)), 42),
      stakeTao: 0,
      validatorPermit: false,
      lastUpdate: 0,
      active: false,
    },
  ]);
});

test('stake above 2^53 rao is summed exactly before conversion', () => {
  const neuron = neuronFromLite({
    hotkey: 'h',
    coldkey: 'c',
    uid: 1,
    active: true,
    lastUpdate: 1,
    validatorPermit: true,
    stake: [
      ['a', 9_007_199_254_740_993n],
      ['b', 7n],
    ],
  });
  assert.equal(neuron.stakeTao, Number(9_007_199_254_741_000n) / 1e9);
});
