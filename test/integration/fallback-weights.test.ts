// Fallback weights on the local chain: with no seated winner to weight — the seat is empty, or its
// winner is no longer registered — the cycle gives all weight to the fallback uid (TRL_FALLBACK_UID,
// else the subnet owner's uid, else 0) and says so in its report. Real Temporal server, real seat
// and cycle workflows, real seat activities on the embedded file chain; no evaluation runs.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { readChainConfig, type ChainConfig } from '../../chain/chain-config.ts';
import { openLocalChain } from '../../chain/open-chain.ts';
import { addressFromUri } from '../../chain/local/dev-keys.ts';
import type { LocalChain } from '../../chain/local/local-chain.ts';
import { newSeatState, seatConfigSchema } from '../../contracts/seat.ts';
import { seatWorkflowId } from '../../contracts/temporal-names.ts';
import { createSeatActivities } from '../../activities/seat-activities.ts';
import { projectWorkflowBundle } from '../support/shared-workflow-bundle.ts';
import type { seatCycle } from '../../workflows/seat-cycle.ts';
import { describeWeights } from '../../contracts/weights-outcome.ts';
import { temporalEndpoint } from '../../infra/temporal-server.ts';
import { uniqueId } from '../support/evaluation-harness.ts';

describe('fallback weights on the local chain', () => {
  const netuid = 1000 + Math.floor(Math.random() * 60_000);
  const seat = seatConfigSchema.parse({ netuid, agent: 'loop', scenarios: ['csv-sales-report'] });
  let config: ChainConfig;
  let chain: LocalChain;
  let client: Client;
  let connection: Connection;
  const workers: { worker: Worker; running: Promise<void>; taskQueue: string }[] = [];
  let bundle: Awaited<ReturnType<typeof projectWorkflowBundle>>;
  const miners: Record<'owner' | 'winner' | 'other', { address: string; uid: number }> = {} as never;

  async function startWorker(fallbackUid?: number): Promise<string> {
    const taskQueue = uniqueId('trl-fallback');
    const worker = await Worker.create({
      connection: await NativeConnection.connect({ address: temporalEndpoint().address }),
      namespace: temporalEndpoint().namespace,
      taskQueue,
      workflowBundle: bundle,
      activities: createSeatActivities({ chain: async () => chain, temporal: { client, taskQueue }, fallbackUid }),
    });
    workers.push({ worker, running: worker.run(), taskQueue });
    return taskQueue;
  }
  const runCycle = (taskQueue: string) =>
    client.workflow.execute<typeof seatCycle>('seatCycle', {
      taskQueue,
      workflowId: uniqueId(`cycle-${netuid}`),
      args: [{ seat }],
    });
  async function passRateLimit() {
    const settings = await chain.weightSettings(netuid);
    const lastUpdate = Math.max(...(await chain.metagraph(netuid)).neurons.map((n) => n.lastUpdate));
    while ((await chain.currentBlock()) < lastUpdate + settings.weightsRateLimit) await sleep(50);
  }
  const ourWeights = async () => {
    const validator = await addressFromUri(config.TRL_LOCAL_VALIDATOR_URI);
    return (await chain.weights(netuid)).find((row) => row.validatorHotkey === validator)?.weights;
  };

  before(async () => {
    config = readChainConfig({
      TRL_LOCAL_CHAIN_FILE: path.join(await mkdtemp(path.join(tmpdir(), 'trl-fallback-chain-')), 'chain.json'),
      TRL_NETUID: String(netuid),
      TRL_LOCAL_CHAIN_BLOCK_MS: '50',
    });
    chain = await openLocalChain(config);
    for (const name of ['owner', 'winner', 'other'] as const) {
      const address = await addressFromUri(`//Fallback-${name}`);
      miners[name] = { address, uid: await chain.register(netuid, { hotkey: address }) };
    }
    connection = await Connection.connect({ address: temporalEndpoint().address });
    client = new Client({ connection, namespace: temporalEndpoint().namespace });
    bundle = await projectWorkflowBundle();
  });

  after(async () => {
    await client?.workflow
      .getHandle(seatWorkflowId(netuid))
      .terminate('test finished')
      .catch(() => undefined);
    for (const { worker } of workers) worker.shutdown();
    await Promise.all(workers.map((w) => w.running));
    await connection?.close();
  });

  test('an empty seat with no owner on chain and nothing configured: all weight to uid 0, said in the report', async () => {
    const taskQueue = await startWorker();
    const report = await runCycle(taskQueue);
    assert.equal(report.seatedHotkey, null);
    assert.equal(report.weights.status, 'set', JSON.stringify(report.weights));
    assert.equal(report.weights.status === 'set' && report.weights.uid, 0);
    assert.deepEqual(report.weights.status === 'set' && report.weights.fallback, {
      code: 'seat_empty',
      reason: 'the seat is empty',
      uidSource: 'uid_0',
    });
    assert.match(describeWeights(report.weights), /^fallback uid 0 at block \d+ \(uid 0\): the seat is empty$/);
    assert.deepEqual(await ourWeights(), [{ uid: 0, value: 65535 }]);
  });

  test('the subnet owner, when the chain names one, is the default fallback', async () => {
    await chain.setSubnetOwner(netuid, miners.owner.address);
    await passRateLimit();
    const report = await runCycle(workers[0]!.taskQueue);
    assert.equal(
      report.weights.status === 'set' && report.weights.uid,
      miners.owner.uid,
      JSON.stringify(report.weights),
    );
    assert.equal(report.weights.status === 'set' && report.weights.fallback?.uidSource, 'subnet_owner');
    assert.deepEqual(await ourWeights(), [{ uid: miners.owner.uid, value: 65535 }]);
  });

  test('a seated winner that cannot be weighted (deregistered) falls back to the configured TRL_FALLBACK_UID', async () => {
    // The seat holds a hotkey the chain does not know (deregistered since it won).
    const gone = await addressFromUri('//Fallback-deregistered');
    await client.workflow
      .getHandle(seatWorkflowId(netuid))
      .terminate('replaced by the test')
      .catch(() => undefined);
    const taskQueue = await startWorker(miners.other.uid);
    const state = {
      ...newSeatState(seat),
      incumbent: {
        packHash: 'a'.repeat(64),
        url: 'https://example.com/p.json',
        hotkey: gone,
        seatedTestsPassed: 3,
        seatedTestsTotal: 3,
        seatedAt: new Date().toISOString(),
      },
    };
    await client.workflow.start('seat', { workflowId: seatWorkflowId(netuid), taskQueue, args: [state] });
    await passRateLimit();
    const report = await runCycle(taskQueue);
    assert.equal(report.seatedHotkey, gone);
    assert.equal(report.weights.status, 'set', JSON.stringify(report.weights));
    assert.equal(report.weights.status === 'set' && report.weights.uid, miners.other.uid);
    assert.equal(report.weights.status === 'set' && report.weights.fallback?.code, 'winner_not_registered');
    assert.equal(report.weights.status === 'set' && report.weights.fallback?.uidSource, 'configured');
    assert.deepEqual(await ourWeights(), [{ uid: miners.other.uid, value: 65535 }]);
  });

  test('a registered winner gets the weights, no fallback; a rate-limited write is not a fallback', async () => {
    const taskQueue = workers.at(-1)!.taskQueue;
    await client.workflow.getHandle(seatWorkflowId(netuid)).terminate('replaced by the test');
    const state = {
      ...newSeatState(seat),
      incumbent: {
        packHash: 'b'.repeat(64),
        url: 'https://example.com/p.json',
        hotkey: miners.winner.address,
        seatedTestsPassed: 3,
        seatedTestsTotal: 3,
        seatedAt: new Date().toISOString(),
      },
    };
    await client.workflow.start('seat', { workflowId: seatWorkflowId(netuid), taskQueue, args: [state] });
    await passRateLimit();
    const report = await runCycle(taskQueue);
    assert.equal(
      report.weights.status === 'set' && report.weights.uid,
      miners.winner.uid,
      JSON.stringify(report.weights),
    );
    assert.equal(report.weights.status === 'set' && report.weights.fallback, undefined);
    // Right away again: rate limited (weights are fresh), which is no reason to fall back. With
    // 50 ms blocks the limit may have passed already; then the winner is weighted again.
    const again = await runCycle(taskQueue);
    if (again.weights.status === 'skipped')
      assert.equal(again.weights.code, 'rate_limited', JSON.stringify(again.weights));
    else assert.deepEqual([again.weights.uid, again.weights.fallback], [miners.winner.uid, undefined]);
    assert.deepEqual(await ourWeights(), [{ uid: miners.winner.uid, value: 65535 }]);
  });
});
