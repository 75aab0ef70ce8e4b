// Blame on the seat, end to end on the local chain (real Temporal, Docker, sim fleet, verifiers):
// an outage at the model provider is the infrastructure's, never the policy's — the scenario is
// `infra_error` after the evaluation's own tries, the evaluation `incomplete`, and the seat does
// not move on it; the challenger is not used up by it; and an incumbent that cannot be evaluated
// while the challenger can loses the seat after two such challenges, with the reason on disk.
// The outage: a models file in which the sim fleet fails every call to one model, the only model
// the seated pack (test/fixtures/packs/seat/unevaluable) uses. It is seated as a carried-over
// state would seat it, then its re-evaluations begin to fail.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot } from '../../common/data-layout.ts';
import { seatWorkflowId } from '../../contracts/temporal-names.ts';
import { readChainConfig } from '../../chain/chain-config.ts';
import { openLocalChain } from '../../chain/open-chain.ts';
import { addressFromUri } from '../../chain/local/dev-keys.ts';
import type { LocalChain } from '../../chain/local/local-chain.ts';
import { newSeatState, seatConfigSchema, type SeatView } from '../../contracts/seat.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { localPackUrl, preparePackSubmission } from '../../cli/client/submit-pack.ts';
import { seatQuery } from '../../contracts/seat-signals.ts';
import { defaultAllowlistFile } from '../../gateway/catalog/allowlist.ts';
import type { seatCycle } from '../../workflows/seat-cycle.ts';
import { startHarness, uniqueId, type Harness } from '../support/evaluation-harness.ts';

const fixtures = path.join(repoRoot, 'test', 'fixtures', 'packs', 'seat');
const stormModel = 'qwen3.8-27b';

describe('blame on the seat: an upstream outage and an incumbent that cannot be evaluated', () => {
  const netuid = 1000 + Math.floor(Math.random() * 60_000);
  const seat = seatConfigSchema.parse({
    netuid,
    agent: 'loop',
    scenarios: ['csv-sales-report'],
    seed: 1,
    maxHistoryEvents: 400,
  });
  let harness: Harness;
  let chain: LocalChain;
  const miners: Record<'unevaluable' | 'steady' | 'crashing', { address: string; uid: number }> = {} as never;
  let incumbentHash: string;
  let challengerHash: string;

  const runCycle = () =>
    harness.client.workflow.execute<typeof seatCycle>('seatCycle', {
      taskQueue: harness.taskQueue,
      workflowId: uniqueId(`cycle-${netuid}`),
      args: [{ seat }],
    });
  const seatView = () => harness.client.workflow.getHandle(seatWorkflowId(netuid)).query(seatQuery);
  async function waitForDecisions(count: number): Promise<SeatView> {
    const deadline = Date.now() + 15 * 60_000;
    for (;;) {
      const view = await seatView();
      if (view.decisions >= count && view.current === null) return view;
      if (Date.now() > deadline) assert.fail(`the seat made ${view.decisions} of ${count} decisions in 15 minutes`);
      await sleep(1000);
    }
  }
  const evaluationOf = (workflowId: string) =>
    harness.client.workflow.getHandle(workflowId).result() as Promise<EvaluationResult>;

  before(async () => {
    // The outage: every call to one model fails upstream (500 or 503), on every try.
    const models = JSON.parse(await readFile(defaultAllowlistFile, 'utf8'));
    for (const model of models.models)
      if (model.id === stormModel) Object.assign(model.sim, { rateLimitRate: 0, serverErrorRate: 1 });
    const dir = await mkdtemp(path.join(tmpdir(), 'trl-seat-storm-'));
    process.env.TRL_MODELS_FILE = path.join(dir, 'models.json');
    await writeFile(process.env.TRL_MODELS_FILE, JSON.stringify(models));
    const config = readChainConfig({
      TRL_LOCAL_CHAIN_FILE: path.join(dir, 'chain.json'),
      TRL_NETUID: String(netuid),
      TRL_LOCAL_CHAIN_BLOCK_MS: '200',
    });
    harness = await startHarness({ chain: config });
    chain = await openLocalChain(config);
    await chain.ensureSubnet(netuid + 1);
    for (const name of ['unevaluable', 'steady', 'crashing'] as const) {
      const address = await addressFromUri(`//SeatForfeit-${name}`);
      miners[name] = { address, uid: await chain.register(netuid, { hotkey: address }) };
      if (name !== 'unevaluable') await chain.register(netuid + 1, { hotkey: address });
    }
    const seated = await preparePackSubmission(path.join(fixtures, 'unevaluable'), localPackUrl);
    incumbentHash = seated.packHash;
    await chain.as(miners.unevaluable.address).setCommitment(netuid, seated.text);
    // Seated before the outage, as a state carried across continue-as-new holds it.
    await harness.client.workflow.start('seat', {
      workflowId: seatWorkflowId(netuid),
      taskQueue: harness.taskQueue,
      args: [
        {
          ...newSeatState(seat),
          incumbent: {
            packHash: incumbentHash,
            url: localPackUrl,
            hotkey: miners.unevaluable.address,
            seatedTestsPassed: 3,
            seatedTestsTotal: 10,
            seatedAt: new Date().toISOString(),
          },
        },
      ],
    });
  });

  after(async () => {
    await harness?.client.workflow
      .getHandle(seatWorkflowId(netuid + 1))
      .terminate('test finished')
      .catch(() => undefined);
    await harness?.client.workflow
      .getHandle(seatWorkflowId(netuid))
      .terminate('test finished')
      .catch(() => undefined);
    await harness?.close();
  });

  test("an upstream storm on the incumbent's model: infra_error, incomplete, the seat unmoved", async () => {
    const prepared = await preparePackSubmission(path.join(fixtures, 'steady'), localPackUrl);
    challengerHash = prepared.packHash;
    await chain.as(miners.steady.address).setCommitment(netuid, prepared.text);
    const offered = await runCycle();
    assert.deepEqual(
      offered.accepted.map((o) => o.packHash),
      [challengerHash],
    );
    const view = await waitForDecisions(1);
    const record = view.history.at(-1)!;
    assert.equal(record.outcome, 'no_decision', record.reason);
    assert.equal(record.incumbentUnevaluable, true, record.reason);
    assert.notEqual(record.incomplete, true, 'the challenger is not charged a try for the incumbent');
    assert.match(record.reason, /1 of 2/);
    assert.equal(view.incumbent?.packHash, incumbentHash, 'an outage never moves the seat');
    assert.equal(view.incumbent?.unevaluableRounds, 1);

    const evaluations = await Promise.all(record.evaluations.map(evaluationOf));
    const incumbent = evaluations.find((e) => e.packHash === incumbentHash)!;
    const challenger = evaluations.find((e) => e.packHash === challengerHash)!;
    assert.equal(challenger.status, 'completed');
    assert.equal(incumbent.status, 'incomplete');
    for (const scenario of incumbent.perScenario) {
      assert.equal(scenario.status, 'infra_error', JSON.stringify(scenario));
      assert.match(scenario.error ?? '', /failed upstream.*in each of 3 tries/, scenario.error);
    }
  });

  test('the challenger comes again, and the incumbent forfeits the seat after the second such challenge', async () => {
    const offered = await runCycle();
    assert.deepEqual(
      offered.accepted.map((o) => o.packHash),
      [challengerHash],
      'the challenger was not used up',
    );
    const view = await waitForDecisions(2);
    const record = view.history.at(-1)!;
    assert.equal(record.outcome, 'challenger_takes_seat', record.reason);
    assert.equal(record.incumbentForfeits, true);
    assert.match(record.reason, /forfeits the seat.*2 challenges in a row/);
    assert.equal(view.incumbent?.packHash, challengerHash);
    const evidence = JSON.parse(await readFile(record.evidence!.path, 'utf8'));
    assert.equal(evidence.record.incumbentForfeits, true);
    assert.match(evidence.record.reason, /forfeits/);
  });

  test('an incumbent whose re-evaluations fail by its own doing is scored 0 for them and loses the seat on merit', async () => {
    // Its own subnet and seat; the challenger is the steady pack, already committed by its miner.
    const other = { ...seat, netuid: netuid + 1 };
    const crashing = await preparePackSubmission(path.join(fixtures, 'crashing'), localPackUrl);
    await chain.as(miners.crashing.address).setCommitment(other.netuid, crashing.text);
    const steady = await preparePackSubmission(path.join(fixtures, 'steady'), localPackUrl);
    await harness.client.workflow.start('seat', {
      workflowId: seatWorkflowId(other.netuid),
      taskQueue: harness.taskQueue,
      args: [
        {
          ...newSeatState(other),
          incumbent: {
            packHash: crashing.packHash,
            url: localPackUrl,
            hotkey: miners.crashing.address,
            seatedTestsPassed: 3,
            seatedTestsTotal: 10,
            seatedAt: new Date().toISOString(),
          },
        },
      ],
    });
    await chain.as(miners.steady.address).setCommitment(other.netuid, steady.text);
    const offered = await harness.client.workflow.execute<typeof seatCycle>('seatCycle', {
      taskQueue: harness.taskQueue,
      workflowId: uniqueId(`cycle-${other.netuid}`),
      args: [{ seat: other }],
    });
    assert.deepEqual(
      offered.accepted.map((o) => o.packHash),
      [steady.packHash],
    );
    const handle = harness.client.workflow.getHandle(seatWorkflowId(other.netuid));
    const deadline = Date.now() + 10 * 60_000;
    let view = await handle.query(seatQuery);
    while (view.decisions < 1 || view.current !== null) {
      if (Date.now() > deadline) assert.fail('no decision in 10 minutes');
      await sleep(1000);
      view = await handle.query(seatQuery);
    }
    const record = view.history.at(-1)!;
    const incumbent = (await Promise.all(record.evaluations.map(evaluationOf))).find(
      (e) => e.packHash === crashing.packHash,
    )!;
    assert.equal(incumbent.status, 'completed', 'a pack never makes its own evaluation incomplete');
    for (const scenario of incumbent.perScenario)
      assert.equal(scenario.status, 'policy_error', JSON.stringify(scenario));
    assert.equal(record.outcome, 'challenger_takes_seat', record.reason);
    assert.notEqual(record.incumbentForfeits, true, 'on merit, not by forfeit');
    assert.equal(view.incumbent?.packHash, steady.packHash);
  });
});
