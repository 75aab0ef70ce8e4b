// The seat's per-hotkey admission in the real workflow: offers through the challenge update on a
// real Temporal server; a hotkey with a pending challenge is refused with a reason, other hotkeys
// are queued; the history replays. (The interval rule's arithmetic: workflows/seat-admission.test.ts.)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { newSeatState, seatConfigSchema, type Challenge } from '../../contracts/seat.ts';
import { challengeUpdate, seatQuery } from '../../contracts/seat-signals.ts';
import { projectWorkflowBundle } from '../support/shared-workflow-bundle.ts';
import { temporalEndpoint } from '../../infra/temporal-server.ts';
import { uniqueId } from '../support/evaluation-harness.ts';

const challenge = (hotkey: string, n: number): Challenge => ({
  packHash: n.toString(16).padStart(64, 'c'),
  url: 'https://example.com/p.json',
  hotkey,
  commitBlock: n,
});

describe('per-hotkey admission in the seat workflow', () => {
  let connection: Connection;
  let client: Client;
  let worker: Worker;
  let running: Promise<void>;
  let bundle: Awaited<ReturnType<typeof projectWorkflowBundle>>;
  const taskQueue = uniqueId('trl-admission');
  const workflowId = uniqueId('seat-admission');

  before(async () => {
    connection = await Connection.connect({ address: temporalEndpoint().address });
    client = new Client({ connection, namespace: temporalEndpoint().namespace });
    bundle = await projectWorkflowBundle();
    // No activities: the seat's evaluations never finish here, which keeps its first challenge pending.
    worker = await Worker.create({
      connection: await NativeConnection.connect({ address: temporalEndpoint().address }),
      namespace: temporalEndpoint().namespace,
      taskQueue,
      workflowBundle: bundle,
      activities: {},
    });
    running = worker.run();
  });

  after(async () => {
    await client?.workflow
      .getHandle(workflowId)
      .terminate('test finished')
      .catch(() => undefined);
    worker?.shutdown();
    await running;
    await connection?.close();
  });

  test('one pending challenge per hotkey, refused with a reason; other hotkeys queued; the history replays', async () => {
    const seat = seatConfigSchema.parse({
      netuid: 60_000,
      agent: 'loop',
      scenarios: ['csv-sales-report'],
      minSubmissionIntervalSec: 3600,
    });
    const handle = await client.workflow.start('seat', { workflowId, taskQueue, args: [newSeatState(seat)] });
    const offers = await handle.executeUpdate(challengeUpdate, {
      args: [[challenge('alice', 1), challenge('alice', 2), challenge('bob', 3)]],
    });
    assert.deepEqual(
      offers.map((o) => [o.accepted, o.code]),
      [
        [true, undefined],
        [false, 'hotkey_pending'],
        [true, undefined],
      ],
    );
    assert.match(offers[1]!.reason, /hotkey alice already has a pending challenge \(pack c{12}\)/);
    // Alice's first challenge is now being decided (or queued): still pending.
    const later = await handle.executeUpdate(challengeUpdate, {
      args: [[challenge('alice', 4), challenge('carol', 5)]],
    });
    assert.deepEqual(
      later.map((o) => o.code ?? 'accepted'),
      ['hotkey_pending', 'accepted'],
    );
    const view = await handle.query(seatQuery);
    assert.deepEqual(
      [view.current, ...view.queue]
        .filter(Boolean)
        .map((c) => c!.hotkey)
        .sort(),
      ['alice', 'bob', 'carol'],
    );
    await handle.terminate('checked');
    await Worker.runReplayHistory({ workflowBundle: bundle }, await handle.fetchHistory());
  });
});
