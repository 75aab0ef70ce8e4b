// The seat and its chain cycle, end to end on the local chain: commitments are read, new packs
// become challenges, evaluations run as child workflows on the real stack (Temporal, Docker, sim
// fleet, verifiers), the decision rule moves the seat only for a better challenger, and weights
// follow the seat. Nothing is faked; the chain is the embedded file chain.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from '@temporalio/worker';
import { repoRoot } from '../../common/data-layout.ts';
import { searchAttributes, seatCycleScheduleId, seatWorkflowId } from '../../contracts/temporal-names.ts';
import { readChainConfig } from '../../chain/chain-config.ts';
import { openLocalChain } from '../../chain/open-chain.ts';
import { addressFromUri } from '../../chain/local/dev-keys.ts';
import type { LocalChain } from '../../chain/local/local-chain.ts';
import { seatConfigSchema, type SeatView } from '../../contracts/seat.ts';
import { localPackUrl, preparePackSubmission } from '../../cli/client/submit-pack.ts';
import { ensureSeatSchedule } from '../../workers/seat-schedule.ts';
import { seatQuery } from '../../contracts/seat-signals.ts';
import type { seatCycle } from '../../workflows/seat-cycle.ts';
import { startHarness, uniqueId, type Harness } from '../support/evaluation-harness.ts';

const fixtures = path.join(repoRoot, 'test', 'fixtures', 'packs', 'seat');
const scenarios = ['csv-sales-report', 'fix-inventory-bug', 'log-incident-summary'];

describe('the seat on the local chain', () => {
  // A netuid of its own keeps this seat apart from a validator's `trl up` on the same server.
  const netuid = 1000 + Math.floor(Math.random() * 60_000);
  const seat = seatConfigSchema.parse({ netuid, agent: 'loop', scenarios, seed: 1, maxHistoryEvents: 40 });
  let harness: Harness;
  let chain: LocalChain;
  const miners: Record<'weak' | 'strong' | 'copycat' | 'garbage', { address: string; uid: number }> = {} as never;

  const runCycle = () =>
    harness.client.workflow.execute<typeof seatCycle>('seatCycle', {
      taskQueue: harness.taskQueue,
      workflowId: uniqueId(`cycle-${netuid}`),
      args: [{ seat }],
    });
  const seatView = () => harness.client.workflow.getHandle(seatWorkflowId(netuid)).query(seatQuery);
  async function waitForDecisions(count: number): Promise<SeatView> {
    const deadline = Date.now() + 10 * 60_000;
    for (;;) {
      const view = await seatView();
      if (view.decisions >= count && view.current === null) return view;
      if (Date.now() > deadline) assert.fail(`the seat made ${view.decisions} of ${count} decisions in 10 minutes`);
      await sleep(1000);
    }
  }
  async function commit(miner: keyof typeof miners, dir: string) {
    const prepared = await preparePackSubmission(dir, localPackUrl);
    await chain.as(miners[miner].address).setCommitment(netuid, prepared.text);
    return prepared.packHash;
  }
  /** Waits out WeightsSetRateLimit so the next cycle may set weights again. */
  async function passRateLimit() {
    const settings = await chain.weightSettings(netuid);
    const lastUpdate = Math.max(...(await chain.metagraph(netuid)).neurons.map((n) => n.lastUpdate));
    while ((await chain.currentBlock()) < lastUpdate + settings.weightsRateLimit) await sleep(100);
  }

  before(async () => {
    const config = readChainConfig({
      TRL_LOCAL_CHAIN_FILE: path.join(await mkdtemp(path.join(tmpdir(), 'trl-seat-chain-')), 'chain.json'),
      TRL_NETUID: String(netuid),
      TRL_LOCAL_CHAIN_BLOCK_MS: '200',
    });
    harness = await startHarness({ chain: config });
    chain = await openLocalChain(config);
    for (const name of ['weak', 'strong', 'copycat', 'garbage'] as const) {
      const address = await addressFromUri(`//SeatTest-${name}`);
      miners[name] = { address, uid: await chain.register(netuid, { hotkey: address }) };
    }
  });

  after(async () => {
    await harness?.client.workflow
      .getHandle(seatWorkflowId(netuid))
      .terminate('test finished')
      .catch(() => undefined);
    for (const id of [netuid, netuid + 1])
      await harness?.client.schedule
        .getHandle(seatCycleScheduleId(id))
        .delete()
        .catch(() => undefined);
    await harness?.close();
  });

  let weakHash: string;
  let strongHash: string;

  test('the first complete evaluation takes the empty seat; bad commitments are skipped with reasons', async () => {
    weakHash = await commit('weak', path.join(fixtures, 'weak'));
    await chain.as(miners.garbage.address).setCommitment(netuid, 'my pack is the best|ftp://nowhere');
    const first = await runCycle();
    assert.deepEqual(
      first.accepted.map((o) => o.packHash),
      [weakHash],
    );
    // No winner yet: the fallback uid (no owner on the local chain, nothing configured: uid 0) gets the weight.
    assert.equal(
      first.weights.status === 'set' && first.weights.fallback?.code,
      'seat_empty',
      JSON.stringify(first.weights),
    );
    assert.ok(
      first.skipped.some((s) => s.hotkey === miners.garbage.address && /64 hexadecimal/.test(s.reason)),
      JSON.stringify(first.skipped),
    );

    const view = await waitForDecisions(1);
    assert.equal(view.incumbent?.packHash, weakHash, JSON.stringify(view.history));
    assert.equal(view.incumbent?.hotkey, miners.weak.address);
    assert.equal(view.history[0]!.outcome, 'challenger_takes_seat');

    // A later commitment of the same hash by someone else is not theirs to challenge with.
    await chain.as(miners.copycat.address).setCommitment(netuid, `${weakHash}|https://example.com/stolen`);
    await passRateLimit();
    const second = await runCycle();
    assert.equal(second.accepted.length, 0);
    assert.ok(
      second.skipped.some((s) => s.hotkey === miners.copycat.address && /committed first by/.test(s.reason)),
      JSON.stringify(second.skipped),
    );
    assert.equal(second.weights.status, 'set', JSON.stringify(second.weights));
    assert.deepEqual((await chain.weights(netuid))[0]!.weights, [{ uid: miners.weak.uid, value: 65535 }]);
  });

  test('a better challenger takes the seat, with its evidence recorded, and the weights follow', async () => {
    strongHash = await commit('strong', path.join(fixtures, 'strong'));
    const offered = await runCycle();
    assert.deepEqual(
      offered.accepted.map((o) => o.packHash),
      [strongHash],
    );
    const view = await waitForDecisions(2);
    const record = view.history.at(-1)!;
    assert.equal(record.outcome, 'challenger_takes_seat', record.reason);
    assert.equal(view.incumbent?.packHash, strongHash);
    assert.ok(
      record.challengerTotal! > record.incumbentTotal!,
      `${record.challengerTotal} vs ${record.incumbentTotal}`,
    );
    const evidence = JSON.parse(await readFile(record.evidence!.path, 'utf8'));
    assert.equal(evidence.decision.outcome, 'challenger_takes_seat');
    assert.ok(evidence.decision.bootstrap.lowerBound > 0);
    assert.ok(evidence.decision.bootstrap.resamples >= 10_000);
    assert.equal(evidence.decision.perScenario.length, scenarios.length);
    // The decision's spec manifest: its evaluations' contest with the seat's decision parameters.
    assert.match(record.evidence!.manifestHash ?? '', /^[0-9a-f]{64}$/);
    assert.equal(evidence.manifestHash, record.evidence!.manifestHash);
    assert.deepEqual(evidence.specManifest.decision, {
      repeats: seat.repeats,
      bootstrapResamples: seat.bootstrapResamples,
      confidence: seat.confidence,
      seed: seat.seed,
    });
    // Its child evaluations say which side they are, in their summary and a search attribute.
    const specHashes = new Set<string | undefined>();
    for (const workflowId of record.evaluations) {
      const child = await harness.client.workflow.getHandle(workflowId).describe();
      const role = child.typedSearchAttributes.get(searchAttributes.role);
      assert.ok(role === 'challenger' || role === 'incumbent', `${workflowId}: role ${role}`);
      assert.ok(workflowId.includes(`-${role}-`), `${workflowId} is not the ${role}`);
      assert.match((await child.staticSummary()) ?? '', new RegExp(`^${role} · pack [0-9a-f]{12} · `));
      specHashes.add(child.typedSearchAttributes.get(searchAttributes.specHash));
    }
    // Both sides ran the same contest: one spec hash, which is not the decision's (that adds the parameters).
    assert.equal(specHashes.size, 1, [...specHashes].join(', '));
    assert.match([...specHashes][0] ?? '', /^[0-9a-f]{64}$/);
    assert.notEqual([...specHashes][0], record.evidence!.manifestHash);

    await passRateLimit();
    const after = await runCycle();
    assert.equal(after.weights.status, 'set', JSON.stringify(after.weights));
    assert.deepEqual((await chain.weights(netuid))[0]!.weights, [{ uid: miners.strong.uid, value: 65535 }]);
  });

  test('an identical challenger does not take the seat, and the weights stay', async () => {
    const again = await mkdtemp(path.join(tmpdir(), 'trl-seat-again-'));
    await cp(path.join(fixtures, 'strong'), again, { recursive: true });
    await writeFile(
      path.join(again, 'SKILL.md'),
      `${await readFile(path.join(again, 'SKILL.md'), 'utf8')}\nVersion 1.0.1.\n`,
    );
    const sameHash = await commit('strong', again);
    assert.notEqual(sameHash, strongHash);
    await runCycle();
    const view = await waitForDecisions(3);
    const record = view.history.at(-1)!;
    assert.notEqual(record.outcome, 'challenger_takes_seat', record.reason);
    assert.equal(view.incumbent?.packHash, strongHash);

    await passRateLimit();
    const after = await runCycle();
    assert.equal(after.weights.status, 'set');
    assert.deepEqual((await chain.weights(netuid))[0]!.weights, [{ uid: miners.strong.uid, value: 65535 }]);
  });

  test('the seat continued as new on the way and kept its state; its histories replay', async () => {
    const handle = harness.client.workflow.getHandle(seatWorkflowId(netuid));
    const runs: string[] = [];
    for await (const execution of harness.client.workflow.list({ query: `WorkflowId = '${seatWorkflowId(netuid)}'` }))
      runs.push(execution.runId);
    assert.ok(runs.length > 1, `expected continue-as-new with maxHistoryEvents 40; found ${runs.length} run(s)`);
    const view = await handle.query(seatQuery);
    assert.equal(view.decisions, 3);
    assert.equal(view.incumbent?.packHash, strongHash);
    for (const runId of runs) {
      const history = await harness.client.workflow.getHandle(seatWorkflowId(netuid), runId).fetchHistory();
      await Worker.runReplayHistory({ workflowBundle: harness.bundle }, history);
    }
  });

  test('changed seat settings reach the running seat, to take effect before its next challenge', async () => {
    await harness.client.workflow.execute<typeof seatCycle>('seatCycle', {
      taskQueue: harness.taskQueue,
      workflowId: uniqueId(`cycle-${netuid}`),
      args: [{ seat: { ...seat, repeats: 2 } }],
    });
    const view = await seatView();
    assert.equal(view.pendingConfig?.repeats, 2);
    assert.equal(view.config.repeats, 1, 'the settings in effect change only between challenges');
  });

  test('a Schedule drives the cycle', async () => {
    const { scheduleId, created } = await ensureSeatSchedule(harness.client, {
      seat,
      intervalSec: 2,
      taskQueue: harness.taskQueue,
    });
    assert.equal(created, true);
    const handle = harness.client.schedule.getHandle(scheduleId);
    // `trl up` pauses the schedule when it stops; the next start resumes it.
    await handle.pause('worker stopped');
    assert.equal(
      (await ensureSeatSchedule(harness.client, { seat, intervalSec: 2, taskQueue: harness.taskQueue })).created,
      false,
    );
    assert.equal((await handle.describe()).state.paused, false);
    const deadline = Date.now() + 60_000;
    let description = await handle.describe();
    while (description.info.recentActions.length === 0 && Date.now() < deadline) {
      await sleep(500);
      description = await handle.describe();
    }
    const started = description.info.recentActions[0];
    assert.ok(started, 'the schedule started no cycle within a minute');
    const report = await harness.client.workflow
      .getHandle(started.action.workflow.workflowId, started.action.workflow.firstExecutionRunId)
      .result();
    assert.equal(report.seatedHotkey, miners.strong.address);

    // The worker now serves another subnet: this subnet's cycles on its queue would only fail.
    const moved = await ensureSeatSchedule(harness.client, {
      seat: { ...seat, netuid: netuid + 1 },
      intervalSec: 60,
      taskQueue: harness.taskQueue,
    });
    assert.deepEqual(moved.pausedOthers, [scheduleId]);
    assert.equal((await handle.describe()).state.paused, true);

    // Two orchestration workers of one deployment starting together: one creates, the other updates.
    const racing = { ...seat, netuid: netuid + 2 };
    const both = await Promise.all([
      ensureSeatSchedule(harness.client, { seat: racing, intervalSec: 60, taskQueue: harness.taskQueue }),
      ensureSeatSchedule(harness.client, { seat: racing, intervalSec: 60, taskQueue: harness.taskQueue }),
    ]);
    assert.deepEqual(both.map((r) => r.created).sort(), [false, true]);
    await harness.client.schedule.getHandle(both[0].scheduleId).delete();
  });
});
