// The client on a runtime whose CommitRevealWeightsVersion is 4: a stand-in for ApiPromise that
// answers like spec 424 and encodes what would be sent with the real finney metadata, so the
// test reads the call back as the chain would, opens the commit with the beacon's signature for
// the committed round, and finds the signer's weights.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiPromise } from '@polkadot/api';
import { Keyring } from '@polkadot/keyring';
import { u8aToHex } from '@polkadot/util';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { ChainError } from '../chain-error.ts';
import { commitRevealSettingsStorage, number, flag, text } from './testing/stand-in-codecs.ts';
import { finneyMetadataFile, requireChainTestFile } from './testing/chain-test-data.ts';
import { loadOfflineRuntime } from './testing/offline-metadata.ts';
import { SubtensorClient } from './subtensor-client.ts';
import { drandRoundIdentity, encodeWeightsTlockPayload, quicknetBeacon } from './timelock-commit.ts';
import { decryptTimelockIndependently, localBeacon } from './testing/timelock-independent-decrypt.ts';

const runtime = loadOfflineRuntime(requireChainTestFile(finneyMetadataFile));
const netuid = 11;
const miner = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
const beacon = localBeacon(0xfeed_beef_0123_4567_89ab_cdefn);

interface FakeChain {
  block: number;
  timestampMs?: number;
  nextEpochStart: number;
  withTimelockedCall: boolean;
  /** Encoded calls, as spec 424 would receive them. */
  sent: string[];
}

function fakeApi(chain: FakeChain, signer: string): ApiPromise {
  const storage = (value: () => unknown) => async () => value();
  const view = {
    query: {
      subtensorModule: {
        ...commitRevealSettingsStorage({ revealPeriodEpochs: 1, commitRevealVersion: () => 4 }),
      },
      timestamp: chain.timestampMs === undefined ? undefined : { now: storage(() => number(chain.timestampMs!)) },
      drand: {
        beaconConfig: storage(() => ({
          publicKey: { toHex: () => u8aToHex(beacon.publicKey) },
          period: number(3),
          genesisTime: number(quicknetBeacon.genesisTimeSec),
        })),
      },
    },
    call: {
      neuronInfoRuntimeApi: {
        getNeuronsLite: async () => [
          {
            hotkey: text(signer),
            coldkey: text(signer),
            uid: number(0),
            active: flag(true),
            stake: [[text(signer), number(5e12)]],
            lastUpdate: number(0),
            validatorPermit: flag(true),
          },
          {
            hotkey: text(miner),
            coldkey: text(miner),
            uid: number(1),
            active: flag(true),
            stake: [],
            lastUpdate: number(0),
            validatorPermit: flag(false),
          },
        ],
      },
      subnetInfoRuntimeApi: {
        getNextEpochStartBlock: async () => ({ isSome: true, unwrap: () => number(chain.nextEpochStart) }),
      },
    },
  };
  const extrinsic =
    (method: string) =>
    (...args: unknown[]) => ({
      signAndSend: async (_pair: unknown, _options: unknown, onStatus: (result: unknown) => void) => {
        chain.block += 1;
        chain.sent.push(runtime.tx.subtensorModule![method]!(...args).toHex());
        const blockHash = { toHex: () => `0x${chain.block.toString(16).padStart(64, '0')}` };
        setImmediate(() =>
          onStatus({
            status: { isInBlock: true, asInBlock: blockHash },
            dispatchError: undefined,
            txHash: { toHex: () => `0x${'ee'.repeat(32)}` },
          }),
        );
        return () => undefined;
      },
    });
  const tx = {
    setMechanismWeights: extrinsic('setMechanismWeights'),
    commitWeights: extrinsic('commitWeights'),
    ...(chain.withTimelockedCall ? { commitTimelockedWeights: extrinsic('commitTimelockedWeights') } : {}),
  };
  return {
    runtimeVersion: { specVersion: number(424) },
    query: { subtensorModule: view.query.subtensorModule },
    call: view.call,
    tx: { subtensorModule: tx },
    rpc: { chain: { getHeader: async () => ({ hash: 'head', number: number(chain.block) }) } },
    at: async () => view,
    disconnect: async () => undefined,
  } as unknown as ApiPromise;
}

async function setUp(chainOverrides: Partial<FakeChain> = {}) {
  await cryptoWaitReady();
  const pair = new Keyring({ type: 'sr25519', ss58Format: 42 }).addFromUri('//Alice');
  const chain: FakeChain = {
    block: 1000,
    timestampMs: 1_700_000_000_000,
    nextEpochStart: 1200,
    withTimelockedCall: true,
    sent: [],
    ...chainOverrides,
  };
  // No pendingRevealsFile: timelocked commits have nothing to keep.
  const client = new SubtensorClient(fakeApi(chain, pair.address), { signer: pair });
  return { chain, client, signer: pair.address };
}

/** The sent call decoded with the spec 424 metadata, as the chain would read it. */
function decodeSentCall(callHex: string) {
  const call = runtime.registry.createType('Call', callHex);
  assert.equal(`${call.section}.${call.method}`, 'subtensorModule.commitTimelockedWeights');
  const [callNetuid, commit, revealRound, version] = call.args as unknown as [
    { toNumber(): number },
    { toU8a(bare: boolean): Uint8Array },
    { toNumber(): number },
    { toNumber(): number },
  ];
  return {
    netuid: callNetuid.toNumber(),
    commit: commit.toU8a(true),
    revealRound: revealRound.toNumber(),
    version: version.toNumber(),
  };
}

test('commit-reveal v4: the client sends commit_timelocked_weights, which the beacon signature for its round opens to our weights', async () => {
  const { chain, client, signer } = await setUp();
  const submission = await client.setWeights(netuid, [1], [65535]);
  assert.deepEqual([submission.mode, submission.block, submission.revealFromBlock], ['timelocked', 1001, 1200]);
  assert.equal(chain.sent.length, 1);
  const sent = decodeSentCall(chain.sent[0]!);
  // Block 1000 at 1 700 000 000 s, reveal epoch from block 1200, aimed 3 blocks in: round 2 399 689.
  assert.deepEqual([sent.netuid, sent.revealRound, sent.version], [netuid, 2_399_689, 4]);
  const plaintext = decryptTimelockIndependently(sent.commit, beacon.sign(drandRoundIdentity(sent.revealRound)));
  assert.equal(
    u8aToHex(plaintext),
    u8aToHex(encodeWeightsTlockPayload({ hotkey: signer, uids: [1], values: [65535], versionKey: 7 })),
  );
  assert.throws(
    () => decryptTimelockIndependently(sent.commit, beacon.sign(drandRoundIdentity(sent.revealRound - 1))),
    'an earlier round cannot open it',
  );
});

test('without a Timestamp pallet the local clock stands in for the block time', async () => {
  const { chain, client } = await setUp({ timestampMs: undefined });
  const before = Date.now();
  await client.setWeights(netuid, [1], [65535]);
  const after = Date.now();
  const { revealRound } = decodeSentCall(chain.sent[0]!);
  const roundAt = (nowMs: number) => Math.floor((nowMs + 203 * 12_000 - quicknetBeacon.genesisTimeSec * 1000) / 3000);
  assert.ok(
    revealRound >= roundAt(before) && revealRound <= roundAt(after),
    `${revealRound} within [${roundAt(before)}, ${roundAt(after)}]`,
  );
});

test('a runtime that reports version 4 without commit_timelocked_weights is refused before anything is sent', async () => {
  const { chain, client } = await setUp({ withTimelockedCall: false });
  const error = await client.setWeights(netuid, [1], [65535]).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof ChainError);
  assert.deepEqual([error.kind, error.code], ['preflight', 'commit_reveal_v4_unsupported']);
  assert.deepEqual(chain.sent, []);
});
