// Killing the worker process in the middle of a seat's challenge: a new worker finishes the seat's
// cycle and decides. (The plain evaluation's side: worker-crash.test.ts.)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../common/data-layout.ts';
import { evaluationWorkflowId, seatWorkflowId } from '../../contracts/temporal-names.ts';
import { containerLabels } from '../../sandbox/container-labels.ts';
import { listManagedContainers } from '../../sandbox/orphan-cleanup.ts';
import { waitFor, workerProcesses } from '../support/worker-process.ts';
import { startHarness, uniqueId, type Harness } from '../support/evaluation-harness.ts';
import { examplePackDir } from '../support/fixture-packs.ts';
import { readChainConfig } from '../../chain/chain-config.ts';
import { openLocalChain } from '../../chain/open-chain.ts';
import { addressFromUri } from '../../chain/local/dev-keys.ts';
import { localPackUrl, preparePackSubmission } from '../../cli/client/submit-pack.ts';
import { seatConfigSchema } from '../../contracts/seat.ts';
import { seatQuery } from '../../contracts/seat-signals.ts';
import type { seatCycle } from '../../workflows/seat-cycle.ts';

const fixtures = path.join(repoRoot, 'test', 'fixtures', 'scenarios');

describe('worker crash mid-challenge', () => {
  let harness: Harness;
  const workers = workerProcesses();

  before(async () => {
    harness = await startHarness({ withWorker: false });
  });
  after(async () => {
    workers.killAll();
    await harness?.close();
  });

  test('the seat survives a worker killed in the middle of a challenge', async () => {
    const netuid = 1000 + Math.floor(Math.random() * 60_000);
    const chainEnv = {
      TRL_LOCAL_CHAIN_FILE: path.join(mkdtempSync(path.join(os.tmpdir(), 'trl-crash-chain-')), 'chain.json'),
      TRL_NETUID: String(netuid),
      TRL_LOCAL_CHAIN_BLOCK_MS: '200',
    };
    const chain = await openLocalChain(readChainConfig(chainEnv));
    const miner = await addressFromUri('//CrashTestMiner');
    await chain.register(netuid, { hotkey: miner });
    const prepared = await preparePackSubmission(examplePackDir, localPackUrl);
    await chain.as(miner).setCommitment(netuid, prepared.text);
    const seat = seatConfigSchema.parse({
      netuid,
      agent: 'oracle',
      scenarios: ['slow-writer'],
      scenariosDir: fixtures,
    });

    const first = await workers.start(harness.taskQueue, chainEnv);
    const cycle = await harness.client.workflow.execute<typeof seatCycle>('seatCycle', {
      taskQueue: harness.taskQueue,
      workflowId: uniqueId('crash-cycle'),
      args: [{ seat }],
    });
    assert.deepEqual(
      cycle.accepted.map((o) => o.packHash),
      [prepared.packHash],
    );

    // Kill the worker while the seat's child evaluation has its agent in the sandbox.
    const childPrefix = evaluationWorkflowId(`seat-${netuid}-1-challenger`);
    await waitFor(
      async () => {
        const containers = await listManagedContainers(harness.docker, [`${containerLabels.role}=agent`]);
        return containers.find(
          (c) => c.State === 'running' && (c.Labels[containerLabels.workflowId] ?? '').startsWith(childPrefix),
        );
      },
      90_000,
      "the seat evaluation's agent container",
    );
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));

    const second = await workers.start(harness.taskQueue, chainEnv);
    const view = await waitFor(
      async () => {
        const current = await harness.client.workflow.getHandle(seatWorkflowId(netuid)).query(seatQuery);
        return current.decisions >= 1 ? current : undefined;
      },
      180_000,
      "the seat's decision after the crash",
    );
    assert.equal(view.incumbent?.packHash, prepared.packHash, JSON.stringify(view.history));
    assert.equal(view.history.length, 1);
    assert.equal(view.history[0]!.outcome, 'challenger_takes_seat');
    assert.equal(view.incumbent?.seatedTestsPassed, 2);
    await harness.client.workflow.getHandle(seatWorkflowId(netuid)).terminate('test finished');
    second.kill('SIGTERM');
  });
});
