// The client's commit-reveal v2 bookkeeping, which no local runtime can exercise (spec 103 has
// no commit-reveal): a stand-in for ApiPromise that answers like spec 424 (SubnetEpochIndex
// counter, WeightCommits, get_next_epoch_start_block) and records what would be sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ApiPromise } from '@polkadot/api';
import { Keyring } from '@polkadot/keyring';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { ChainError } from '../chain-error.ts';
import { commitRevealSettingsStorage, number, flag, text, option } from './testing/stand-in-codecs.ts';
import { commitHash } from './commit-reveal.ts';
import { loadPendingReveals, savePendingReveals } from './pending-reveals-store.ts';
import { SubtensorClient } from './subtensor-client.ts';

const netuid = 11;
const miner = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';

interface FakeChain {
  block: number;
  /** Makes the post-commit read of WeightCommits fail, as a dropped connection would. */
  failWeightCommits?: boolean;
  epoch: number;
  nextEpochStart: number;
  commitRevealVersion: number;
  sent: Array<{ method: string; args: unknown[] }>;
  commits: Array<{ hash: string; epoch: number }>;
}

function fakeApi(chain: FakeChain, signer: string): ApiPromise {
  const storage = (value: () => unknown) => async () => value();
  const view = {
    query: {
      subtensorModule: {
        ...commitRevealSettingsStorage({ revealPeriodEpochs: 2, commitRevealVersion: () => chain.commitRevealVersion }),
        subnetEpochIndex: storage(() => number(chain.epoch)),
        weightCommits: storage(() => {
          if (chain.failWeightCommits) throw new Error('WebSocket is not connected');
          return option(
            chain.commits.map((commit) => [{ toHex: () => commit.hash }, number(commit.epoch), number(0), number(0)]),
          );
        }),
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
      subnetInfoRuntimeApi: { getNextEpochStartBlock: async () => option(number(chain.nextEpochStart)) },
    },
  };
  const extrinsic =
    (method: string) =>
    (...args: unknown[]) => ({
      signAndSend: async (_pair: unknown, _options: unknown, onStatus: (result: unknown) => void) => {
        chain.block += 1;
        chain.sent.push({ method, args });
        if (method === 'commitWeights') chain.commits.push({ hash: args[1] as string, epoch: chain.epoch });
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
  return {
    runtimeVersion: { specVersion: number(424) },
    query: { subtensorModule: view.query.subtensorModule },
    call: view.call,
    tx: {
      subtensorModule: {
        setMechanismWeights: extrinsic('setMechanismWeights'),
        commitWeights: extrinsic('commitWeights'),
        revealWeights: extrinsic('revealWeights'),
      },
    },
    rpc: { chain: { getHeader: async () => ({ hash: 'head', number: number(chain.block) }) } },
    at: async () => view,
    disconnect: async () => undefined,
  } as unknown as ApiPromise;
}

async function setUp(
  run: (context: { chain: FakeChain; client: SubtensorClient; file: string; signer: string }) => Promise<void>,
  options: { withFile?: boolean } = {},
) {
  await cryptoWaitReady();
  const pair = new Keyring({ type: 'sr25519', ss58Format: 42 }).addFromUri('//Alice');
  const directory = await mkdtemp(path.join(tmpdir(), 'subtensor-client-'));
  const file = path.join(directory, 'pending.json');
  const chain: FakeChain = {
    block: 1000,
    epoch: 5,
    nextEpochStart: 1200,
    commitRevealVersion: 2,
    sent: [],
    commits: [],
  };
  const client = new SubtensorClient(fakeApi(chain, pair.address), {
    signer: pair,
    pendingRevealsFile: options.withFile === false ? undefined : file,
  });
  try {
    await run({ chain, client, file, signer: pair.address });
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

test('commit-reveal v2: the commit carries the hash of what will be revealed, and the reveal waits for its epoch', () =>
  setUp(async ({ chain, client, file, signer }) => {
    const submission = await client.setWeights(netuid, [1], [65535]);
    assert.equal(submission.mode, 'commit');
    assert.equal(submission.block, 1001);
    // RevealPeriodEpochs 2: epoch 5 + 2; its start estimated from the next epoch start (1200) plus one tempo + 1.
    assert.equal(submission.revealFromBlock, 1200 + 361);

    const [pending] = await loadPendingReveals(file);
    assert.ok(pending);
    assert.deepEqual(
      [pending.commitEpoch, pending.revealEpoch, pending.epochSource, pending.versionKey],
      [5, 7, 'counter', 7],
    );
    assert.equal(pending.salt.length, 8);
    const hash = commitHash({
      hotkey: signer,
      netuidIndex: netuid,
      uids: [1],
      values: [65535],
      salt: pending.salt,
      versionKey: 7,
    });
    assert.deepEqual(chain.sent, [{ method: 'commitWeights', args: [netuid, hash] }]);

    chain.epoch = 6;
    assert.deepEqual(await client.revealDueWeights(netuid), [], 'one epoch early');
    assert.equal((await loadPendingReveals(file)).length, 1, 'kept for later');

    chain.epoch = 7;
    const [reveal] = await client.revealDueWeights(netuid);
    assert.equal(reveal?.mode, 'reveal');
    assert.deepEqual(chain.sent[1], { method: 'revealWeights', args: [netuid, [1], [65535], pending.salt, 7] });
    assert.deepEqual(await loadPendingReveals(file), [], 'revealed entries leave the file');
    assert.deepEqual(await client.revealDueWeights(netuid), [], 'and are not revealed twice');
  }));

test('the commit epoch is read back from WeightCommits when the runtime tagged it differently', () =>
  setUp(async ({ chain, client, file }) => {
    const originalPush = chain.commits.push.bind(chain.commits);
    chain.commits.push = (commit) => originalPush({ ...commit, epoch: commit.epoch + 1 });
    await client.setWeights(netuid, [1], [65535]);
    const [pending] = await loadPendingReveals(file);
    assert.deepEqual([pending?.commitEpoch, pending?.revealEpoch], [6, 8]);
  }));

test('a commit whose epoch cannot be read back is still kept, with the epoch counter read before sending', () =>
  setUp(async ({ chain, client, file }) => {
    chain.failWeightCommits = true;
    const submission = await client.setWeights(netuid, [1], [65535]);
    assert.equal(submission.mode, 'commit');
    const [pending] = await loadPendingReveals(file);
    assert.deepEqual(
      [pending?.commitEpoch, pending?.revealEpoch, pending?.epochSource, pending?.salt.length],
      [5, 7, 'counter', 8],
    );
  }));

test('expired commits are dropped without sending; other hotkeys and subnets are left alone', () =>
  setUp(async ({ chain, client, file, signer }) => {
    await client.setWeights(netuid, [1], [65535]);
    const [ours] = await loadPendingReveals(file);
    assert.ok(ours);
    const othersEntry = { ...ours, hotkey: miner };
    const otherSubnet = { ...ours, netuid: 12 };
    await savePendingReveals(file, [ours, othersEntry, otherSubnet]);
    chain.epoch = 8;
    assert.deepEqual(await client.revealDueWeights(netuid), []);
    assert.equal(chain.sent.filter((call) => call.method === 'revealWeights').length, 0);
    assert.deepEqual(
      (await loadPendingReveals(file)).map((reveal) => [reveal.hotkey, reveal.netuid]),
      [
        [miner, 11],
        [signer, 12],
      ],
    );
  }));

test('a v4 runtime without commit_timelocked_weights is refused before anything is sent; so is a v2 commit with nowhere to keep the reveal', async () => {
  await setUp(async ({ chain, client }) => {
    chain.commitRevealVersion = 4;
    const error = await client.setWeights(netuid, [1], [65535]).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof ChainError);
    assert.deepEqual([error.kind, error.code, error.retryable], ['preflight', 'commit_reveal_v4_unsupported', false]);
    assert.match(error.message, /timelock/);
    assert.deepEqual(chain.sent, [], 'nothing sent');
  });
  await setUp(
    async ({ chain, client }) => {
      const error = await client.setWeights(netuid, [1], [65535]).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      assert.ok(error instanceof ChainError);
      assert.equal(error.code, 'no_pending_reveals_file');
      assert.deepEqual(chain.sent, []);
    },
    { withFile: false },
  );
});
