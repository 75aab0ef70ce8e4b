// Fair pairing on the seat, end to end (real Temporal, Docker, sim fleet, verifiers): with the
// interleaved schedule each scenario's run starts in the challenger's and the incumbent's evaluation
// only when the seat has released it to both, and with a window of one, scenario k of both sides is
// done before scenario k + 1 of either starts — read from the histories' event order, never from
// clocks. On a fleet that does not drift, the interleaved schedule gives the same per-scenario
// results and the same decision as the old sequential one, and every history replays.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from '@temporalio/worker';
import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { repoRoot } from '../../common/data-layout.ts';
import { pairingSignalNames, seatWorkflowId } from '../../contracts/temporal-names.ts';
import { newSeatState, seatConfigSchema, type SeatRecord, type SeatView } from '../../contracts/seat.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { localPackUrl, preparePackSubmission } from '../../cli/client/submit-pack.ts';
import { seatQuery } from '../../contracts/seat-signals.ts';
import { addressFromUri } from '../../chain/local/dev-keys.ts';
import { startHarness, type Harness } from '../support/evaluation-harness.ts';

const fixtures = path.join(repoRoot, 'test', 'fixtures', 'packs', 'seat');
const scenarios = ['csv-sales-report', 'fix-inventory-bug', 'log-incident-summary'];
type Event = temporal.api.history.v1.IHistoryEvent;

function decode(payloads: temporal.api.common.v1.IPayloads | null | undefined): unknown {
  const first = payloads?.payloads?.[0];
  return first ? defaultPayloadConverter.fromPayload(first) : undefined;
}

describe('fair pairing: challenger and incumbent run each scenario together', () => {
  const netuid = 1000 + Math.floor(Math.random() * 60_000);
  const interleavedNetuid = netuid;
  const sequentialNetuid = netuid + 1;
  let harness: Harness;
  const records: Record<'interleaved' | 'sequential', SeatRecord> = {} as never;
  let incumbentHash: string;
  let challengerHash: string;

  const seatView = (id: number) => harness.client.workflow.getHandle(seatWorkflowId(id)).query(seatQuery);
  async function firstDecision(id: number): Promise<SeatView> {
    const deadline = Date.now() + 20 * 60_000;
    for (;;) {
      const view = await seatView(id);
      if (view.decisions >= 1 && view.current === null) return view;
      if (Date.now() > deadline) assert.fail(`seat ${id} made no decision in 20 minutes`);
      await sleep(1000);
    }
  }
  const historyOf = async (workflowId: string) => harness.client.workflow.getHandle(workflowId).fetchHistory();
  const resultOf = (workflowId: string) =>
    harness.client.workflow.getHandle(workflowId).result() as Promise<EvaluationResult>;
  const roleOf = (workflowId: string) => (workflowId.includes('-challenger-') ? 'challenger' : 'incumbent');

  before(async () => {
    harness = await startHarness();
    // The hotkeys test/integration/seat-cycle.test.ts commits these packs with: a pack hash belongs to
    // its first committer, so in a shared data directory either test may run first.
    const hotkeys = {
      incumbent: await addressFromUri('//SeatTest-weak'),
      challenger: await addressFromUri('//SeatTest-strong'),
    };
    const incumbent = await preparePackSubmission(path.join(fixtures, 'weak'), localPackUrl);
    const challenger = await preparePackSubmission(path.join(fixtures, 'strong'), localPackUrl);
    incumbentHash = incumbent.packHash;
    challengerHash = challenger.packHash;
    // Two seats, alike but for the schedule, each with the weak pack seated and the strong one queued.
    const start = (id: number, pairing: 'interleaved' | 'sequential') => {
      const config = seatConfigSchema.parse({
        netuid: id,
        agent: 'loop',
        scenarios,
        seed: 1,
        pairing,
        pairedWindow: 1,
      });
      return harness.client.workflow.start('seat', {
        workflowId: seatWorkflowId(id),
        taskQueue: harness.taskQueue,
        args: [
          {
            ...newSeatState(config),
            incumbent: {
              packHash: incumbentHash,
              url: localPackUrl,
              hotkey: hotkeys.incumbent,
              seatedTestsPassed: 0,
              seatedTestsTotal: 0,
              seatedAt: new Date().toISOString(),
            },
            queue: [{ packHash: challengerHash, url: localPackUrl, hotkey: hotkeys.challenger, commitBlock: 1 }],
          },
        ],
      });
    };
    await start(interleavedNetuid, 'interleaved');
    await start(sequentialNetuid, 'sequential');
    records.interleaved = (await firstDecision(interleavedNetuid)).history[0]!;
    records.sequential = (await firstDecision(sequentialNetuid)).history[0]!;
  });

  after(async () => {
    for (const id of [interleavedNetuid, sequentialNetuid])
      await harness?.client.workflow
        .getHandle(seatWorkflowId(id))
        .terminate('test finished')
        .catch(() => undefined);
    await harness?.close();
  });

  test('with a window of one, scenario k of both sides is released together and done before k + 1 of either starts', async () => {
    const record = records.interleaved;
    assert.equal(record.evaluations.length, 2, JSON.stringify(record));
    const seatEvents = (await historyOf(seatWorkflowId(interleavedNetuid))).events ?? [];
    // The seat's schedule, in history order: gates it sent and scenarios reported done.
    const schedule: { kind: 'gate' | 'done'; side: string; scenario: string }[] = [];
    for (const event of seatEvents) {
      const sent = event.signalExternalWorkflowExecutionInitiatedEventAttributes;
      if (sent?.signalName === pairingSignalNames.gate) {
        const { scenarios: released } = decode(sent.input) as { scenarios: string[] };
        for (const scenario of released)
          schedule.push({ kind: 'gate', side: roleOf(sent.workflowExecution!.workflowId!), scenario });
      }
      const heard = event.workflowExecutionSignaledEventAttributes;
      if (heard?.signalName === pairingSignalNames.done) {
        const done = decode(heard.input) as { side: string; scenario: string };
        schedule.push({ kind: 'done', side: done.side, scenario: done.scenario });
      }
    }
    const released = [...new Set(schedule.filter((s) => s.kind === 'gate').map((s) => s.scenario))];
    assert.deepEqual([...released].sort(), [...scenarios].sort(), JSON.stringify(schedule));
    const at = (kind: 'gate' | 'done', side: string, scenario: string) => {
      const index = schedule.findIndex((s) => s.kind === kind && s.side === side && s.scenario === scenario);
      assert.ok(index >= 0, `no ${kind} of ${scenario} for the ${side}: ${JSON.stringify(schedule)}`);
      return index;
    };
    for (const [k, scenario] of released.entries()) {
      const gates = ['challenger', 'incumbent'].map((side) => at('gate', side, scenario));
      const dones = ['challenger', 'incumbent'].map((side) => at('done', side, scenario));
      // Both gates of pair k before either side finished it: neither had a head start.
      assert.ok(Math.max(...gates) < Math.min(...dones), `${scenario}: ${JSON.stringify(schedule)}`);
      const next = released[k + 1];
      if (next) {
        const nextGates = ['challenger', 'incumbent'].map((side) => at('gate', side, next));
        assert.ok(
          Math.max(...dones) < Math.min(...nextGates),
          `${next} released before ${scenario} was done on both sides: ${JSON.stringify(schedule)}`,
        );
      }
    }

    // In each evaluation, a scenario's agent run is scheduled only after its gate arrived.
    for (const workflowId of record.evaluations) {
      const events: Event[] = (await historyOf(workflowId)).events ?? [];
      const gateAt = new Map<string, number>();
      const runAt = new Map<string, number>();
      // Hosts take a paired evaluation's claims in the seat's release order (the ranks it sends with them).
      const ranks = new Map<string, number | undefined>();
      for (const [index, event] of events.entries()) {
        const claimed = event.activityTaskScheduledEventAttributes;
        if (claimed?.activityType?.name === 'claimSandboxHost') {
          const input = decode(claimed.input) as { name: string; rank?: number };
          ranks.set(input.name, input.rank);
        }
        const heard = event.workflowExecutionSignaledEventAttributes;
        if (heard?.signalName === pairingSignalNames.gate)
          for (const scenario of (decode(heard.input) as { scenarios: string[] }).scenarios)
            gateAt.set(scenario, index);
        const scheduled = event.activityTaskScheduledEventAttributes;
        if (scheduled?.activityType?.name === 'runScenario') {
          const input = decode(scheduled.input) as { scenario: { name: string } };
          if (!runAt.has(input.scenario.name)) runAt.set(input.scenario.name, index);
        }
      }
      assert.deepEqual([...runAt.keys()].sort(), [...scenarios].sort(), workflowId);
      assert.ok(
        [...ranks.values()].every((rank) => typeof rank === 'number'),
        `${workflowId}: ${JSON.stringify([...ranks])}`,
      );
      assert.deepEqual(
        [...ranks].sort((a, b) => a[1]! - b[1]!).map(([name]) => name),
        released,
        `${workflowId}: claim ranks ${JSON.stringify([...ranks])} against the release order`,
      );
      for (const [scenario, index] of runAt)
        assert.ok((gateAt.get(scenario) ?? Infinity) < index, `${workflowId}: ${scenario} ran before its gate`);
    }
  });

  test('the old sequential schedule ran the challenger whole before the incumbent started', async () => {
    const events = (await historyOf(seatWorkflowId(sequentialNetuid))).events ?? [];
    const challengerDone = events.findIndex(
      (e) =>
        e.childWorkflowExecutionCompletedEventAttributes &&
        roleOf(e.childWorkflowExecutionCompletedEventAttributes.workflowExecution!.workflowId!) === 'challenger',
    );
    const incumbentStarted = events.findIndex(
      (e) =>
        e.startChildWorkflowExecutionInitiatedEventAttributes &&
        roleOf(e.startChildWorkflowExecutionInitiatedEventAttributes.workflowId!) === 'incumbent',
    );
    assert.ok(challengerDone >= 0 && incumbentStarted > challengerDone, `${challengerDone} ${incumbentStarted}`);
  });

  test('on a fleet without drift both schedules give the same per-scenario results and the same decision', async () => {
    const { interleaved, sequential } = records;
    assert.equal(interleaved.outcome, 'challenger_takes_seat', interleaved.reason);
    assert.equal(interleaved.outcome, sequential.outcome, `${interleaved.reason} | ${sequential.reason}`);
    assert.equal(interleaved.challengerTotal, sequential.challengerTotal);
    assert.equal(interleaved.incumbentTotal, sequential.incumbentTotal);
    const perScenario = async (record: SeatRecord) => {
      const sides: Record<string, unknown> = {};
      for (const workflowId of record.evaluations) {
        const result = await resultOf(workflowId);
        assert.equal(result.status, 'completed', workflowId);
        sides[roleOf(workflowId)] = result.perScenario
          .map((s) => ({ name: s.name, status: s.status, testsPassed: s.testsPassed, testsTotal: s.testsTotal }))
          .sort((a, b) => (a.name < b.name ? -1 : 1));
      }
      return sides;
    };
    const fromInterleaved = await perScenario(interleaved);
    assert.deepEqual(fromInterleaved, await perScenario(sequential));
    assert.deepEqual(Object.keys(fromInterleaved).sort(), ['challenger', 'incumbent']);
  });

  test("the seats' and the paired evaluations' histories replay", async () => {
    const ids = [
      seatWorkflowId(interleavedNetuid),
      seatWorkflowId(sequentialNetuid),
      ...records.interleaved.evaluations,
      ...records.sequential.evaluations,
    ];
    for (const workflowId of ids)
      await Worker.runReplayHistory({ workflowBundle: harness.bundle }, await historyOf(workflowId));
  });
});
