// The Subtensor client against a real runtime: chopsticks boots the 2023 test network genesis
// (spec 103) on 127.0.0.1 with //Alice as sudo. Sudo creates a subnet and registers two
// neurons; the client reads them, sets weights in a real extrinsic and reads them back; refusals
// come back as named errors. Spec 103 has no Commitments pallet, no commit-reveal and no
// mechanisms: the client must say so, not fail obscurely.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ApiPromise } from '@polkadot/api';
import type { SubmittableExtrinsic } from '@polkadot/api/types';
import { Keyring } from '@polkadot/keyring';
import type { KeyringPair } from '@polkadot/keyring/types';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { ChainError } from '../../chain/chain-error.ts';
import { requireChainTestFile, testfinneySpecFile } from '../../chain/subtensor/testing/chain-test-data.ts';
import { startChopsticks, type ChopsticksNode } from '../../chain/subtensor/testing/chopsticks-node.ts';
import { submitAndWaitForInclusion } from '../../chain/subtensor/extrinsic-submission.ts';
import { openSubtensor, type SubtensorClient } from '../../chain/subtensor/subtensor-client.ts';
import { openApi } from '../../chain/subtensor/subtensor-connection.ts';
import { classifySubmissionError } from '../../chain/subtensor/transaction-errors.ts';

const netuid = 1;
const tao = 1_000_000_000n;

async function refusal(promise: Promise<unknown>): Promise<ChainError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof ChainError, `expected a ChainError, got ${String(error)}`);
  return error;
}

describe('Subtensor client on a chopsticks node (spec 103)', { timeout: 120_000 }, () => {
  let workDirectory: string;
  let node: ChopsticksNode;
  let alice: KeyringPair;
  let bob: KeyringPair;
  let client: SubtensorClient;
  /** A second connection for sudo set-up, which the client has no call for. */
  let api: ApiPromise;

  /** Sends `sudo(call)` as //Alice and checks the inner call succeeded (Sudid(Ok)). */
  async function sudo(call: SubmittableExtrinsic<'promise'>): Promise<void> {
    const inclusion = await submitAndWaitForInclusion(api, alice, api.tx.sudo!.sudo!(call), 30_000);
    const events = (await (
      await api.at(inclusion.blockHash)
    ).query.system!.events!()) as unknown as Array<{
      event: { section: string; method: string; data: { toJSON(): unknown } };
    }>;
    const sudid = events.find(({ event }) => event.section === 'sudo' && event.method === 'Sudid');
    assert.deepEqual(
      sudid?.event.data.toJSON(),
      [{ ok: null }],
      `sudo ${call.method.section}.${call.method.method} succeeded`,
    );
  }

  before(async () => {
    workDirectory = await mkdtemp(path.join(tmpdir(), 'chopsticks-chain-'));
    await cryptoWaitReady();
    const keyring = new Keyring({ type: 'sr25519', ss58Format: 42 });
    alice = keyring.addFromUri('//Alice');
    bob = keyring.addFromUri('//Bob');
    const funded = { providers: 1, data: { free: (1_000_000n * tao).toString() } };
    node = await startChopsticks({
      genesisFile: requireChainTestFile(testfinneySpecFile),
      workDirectory,
      importStorage: {
        Sudo: { Key: alice.address },
        System: {
          Account: [
            [[alice.address], funded],
            [[bob.address], funded],
          ],
        },
      },
    });
    api = await openApi(node.endpoint, 30_000);
    client = await openSubtensor({
      endpoint: node.endpoint,
      signer: alice,
      pendingRevealsFile: path.join(workDirectory, 'pending-reveals.json'),
      timeoutMs: 30_000,
      inclusionTimeoutMs: 30_000,
    });
  });

  after(async () => {
    await client?.close().catch(() => undefined);
    await api?.disconnect().catch(() => undefined);
    await node?.stop();
    if (workDirectory) await rm(workDirectory, { recursive: true, force: true });
  });

  test('the client reports what spec 103 lacks', async () => {
    assert.deepEqual(client.features, {
      specVersion: 103,
      commitments: false,
      neuronRuntimeApi: false,
      mechanismWeights: false,
      commitReveal: false,
      epochCounter: false,
    });
    const settings = await client.weightSettings(3);
    assert.equal(settings.commitRevealEnabled, false, 'no commit-reveal storage: off');
    assert.equal(settings.commitRevealVersion, undefined);
    assert.equal(settings.revealPeriodEpochs, 1);
    assert.equal(settings.tempo, 99, "netuid 3's tempo in the genesis");
  });

  test('commitments degrade to a named error, reads and writes alike', async () => {
    const read = await refusal(client.commitments(3));
    assert.deepEqual([read.kind, read.code], ['bad_data', 'no_commitments_pallet']);
    assert.match(read.message, /spec 103/);
    const write = await refusal(client.setCommitment(3, `${'a'.repeat(64)}|https://packs.example.org/p.tar.gz`));
    assert.deepEqual([write.kind, write.code], ['preflight', 'no_commitments_pallet']);
  });

  test('a sudo-created subnet with two registered neurons: real weights included in a block and read back', async () => {
    const subtensor = api.tx.subtensorModule!;
    await sudo(subtensor.sudoAddNetwork!(netuid, 1, 0));
    await sudo(subtensor.sudoRegister!(netuid, alice.address, alice.address, 1000n * tao, 0));
    await sudo(subtensor.sudoRegister!(netuid, bob.address, bob.address, 0, 0));
    // New subnets on spec 103 start with MinAllowedWeights 1024 and MaxWeightsLimit 1000: winner-take-all needs both
    // relaxed.
    await sudo(subtensor.sudoSetMinAllowedWeights!(netuid, 1));
    await sudo(subtensor.sudoSetMaxWeightLimit!(netuid, 65535));

    const metagraph = await client.metagraph(netuid);
    assert.deepEqual(
      metagraph.neurons.map((neuron) => [neuron.uid, neuron.hotkey, neuron.coldkey, neuron.stakeTao]),
      [
        [0, alice.address, alice.address, 1000],
        [1, bob.address, bob.address, 0],
      ],
    );
    assert.ok(metagraph.neurons[0]!.validatorPermit, 'the epoch (tempo 1) gave //Alice a permit');

    const submission = await client.setWeights(netuid, [1], [65535]);
    assert.equal(submission.mode, 'direct');
    assert.ok(submission.block > metagraph.block, `included in block ${submission.block}`);
    assert.match(submission.transaction, /^0x[0-9a-f]{64}$/);

    assert.deepEqual(await client.weights(netuid), [
      { validatorUid: 0, validatorHotkey: alice.address, weights: [{ uid: 1, value: 65535 }] },
    ]);
    const after = await client.metagraph(netuid);
    assert.equal(after.neurons[0]!.lastUpdate, submission.block, 'LastUpdate is the inclusion block');
    assert.ok((await client.currentBlock()) >= submission.block);
  });

  test('a dispatch error comes back decoded by name', async () => {
    const noSubnet = await refusal(
      submitAndWaitForInclusion(api, alice, api.tx.subtensorModule!.setWeights!(99, [0], [65535], 0), 30_000),
    );
    assert.deepEqual(
      [noSubnet.kind, noSubnet.code, noSubnet.retryable],
      ['dispatch', 'SubtensorModule.NetworkDoesNotExist', false],
    );
    // The client itself refuses before sending: the signer is not registered there.
    const preflight = await refusal(client.setWeights(99, [0], [65535]));
    assert.deepEqual([preflight.kind, preflight.code], ['preflight', 'not_registered']);
  });

  test('the rate limit: refused by preflight with the block to retry at, and by the runtime as a retryable SettingWeightsTooFast', async () => {
    await sudo(api.tx.subtensorModule!.sudoSetWeightsSetRateLimit!(netuid, 1000));
    const preflight = await refusal(client.setWeights(netuid, [1], [65535]));
    assert.deepEqual([preflight.kind, preflight.code, preflight.retryable], ['preflight', 'rate_limited', true]);
    const lastUpdate = (await client.metagraph(netuid)).neurons[0]!.lastUpdate;
    assert.equal(preflight.retryAtBlock, lastUpdate + 1000);

    const runtime = await refusal(
      submitAndWaitForInclusion(api, alice, api.tx.subtensorModule!.setWeights!(netuid, [1], [65535], 0), 30_000),
    );
    assert.deepEqual(
      [runtime.kind, runtime.code, runtime.retryable],
      ['dispatch', 'SubtensorModule.SettingWeightsTooFast', true],
    );
  });

  test('a pool refusal (stale nonce) is an invalid_transaction, retryable', async () => {
    const error = await api.tx.system!.remark!('0x00')
      .signAndSend(alice, { nonce: 0 })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    const classified = classifySubmissionError(error);
    assert.deepEqual([classified.kind, classified.code, classified.retryable], ['invalid_transaction', 'Stale', true]);
  });

  test('without commit-reveal there is nothing to reveal', async () => {
    assert.deepEqual(await client.revealDueWeights(netuid), []);
  });
});
