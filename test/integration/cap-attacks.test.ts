// The cap holds under content built to be under-estimated (issue 36): twenty parallel calls to the
// dearest model (kimi-k3) with astral-plane characters or runs of one letter, through the real
// TypeScript sandbox, gateway and the sim fleet, whose prompt count is a byte-level BPE tokenizer.
// Under the live rule's estimate a $1 cap was charged $2.80; with the bound the worst Σ charged /
// cap must be ≤ 1 and no call may be billed past its reservation.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { repoRoot } from '../../common/data-layout.ts';
import { createDockerClient } from '../../sandbox/docker-client.ts';
import { bootstrap, type BootstrapResult } from '../../infra/bootstrap.ts';
import { currentWorkerIdentity } from '../../sandbox/worker-identity.ts';
import { loadAllowlist } from '../../gateway/catalog/allowlist.ts';
import { readPackDirectory } from '../../packs/read-pack.ts';
import { bundlePack } from '../../packs/bundle-pack.ts';
import { startPolicyRun } from '../../policy/host/policy-run.ts';
import { startSimFleet, type SimFleet } from '../../simfleet/sim-fleet-server.ts';

const docker = createDockerClient();
const hostile = path.join(repoRoot, 'test', 'fixtures', 'hostile');

describe('the cap under under-estimated content', () => {
  let stack: BootstrapResult;
  let fleet: SimFleet;

  before(async () => {
    stack = await bootstrap(docker);
    fleet = await startSimFleet({ timeScale: 0, mode: 'fast' });
  });
  after(async () => fleet?.close());

  for (const pack of ['astral-burst', 'letter-run-burst']) {
    test(`${pack}: twenty parallel kimi-k3 calls never charge past the $1 cap`, async () => {
      const bundle = await bundlePack(await readPackDirectory(path.join(hostile, pack)));
      const dir = await mkdtemp(path.join(os.tmpdir(), `trl-${pack}-`));
      const run = await startPolicyRun({
        docker,
        owner: currentWorkerIdentity(),
        workflowId: `cap-attacks-${process.pid}`,
        scenario: pack,
        policyImage: stack.policyImage,
        bundleCode: bundle.code,
        allowlist: loadAllowlist(),
        upstream: new OpenAI({ baseURL: fleet.url, apiKey: 'x', maxRetries: 0 }),
        capUsd: 1,
        seed: 0,
        dir,
        bindHost: '127.0.0.1',
        requestTimeoutMs: 120_000,
      });
      let summary;
      try {
        const response = await fetch(`${run.endpoint.url}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'auto', messages: [{ role: 'user', content: 'go' }] }),
        });
        assert.equal(response.status, 200);
      } finally {
        summary = await run.stop();
      }
      const rows = (await readFile(summary.callLog.path, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, number | string>);
      const ends = rows.filter((row) => row.phase === 'end');
      const starts = new Map(rows.filter((row) => row.phase === 'start').map((row) => [row.callId, row]));
      const charged = run.gateway.meter.spentNanoUsd;
      const ratio = Number(charged) / Number(run.gateway.meter.capNanoUsd);
      // What the live rule would have charged: every call's usage in full.
      const billed = ends.reduce((sum, row) => sum + Number(row.costUsd) + Number(row.overshootUsd), 0);
      // Billed prompt tokens over the live estimate, and over the bound, of the same call.
      const overEstimate = Math.max(
        ...ends.map((row) => Number(row.promptTokens) / Number(starts.get(row.callId)?.promptEstimateTokens)),
      );
      const overBound = Math.max(
        ...ends.map((row) => Number(row.promptTokens) / Number(starts.get(row.callId)?.promptBoundTokens)),
      );
      // The live rule on the same burst: it reserves estimate × prompt price + 1,024 completion tokens,
      // so it admits as many calls as those reservations fit, and charges each what it is billed.
      const first = ends.find((row) => row.status === 'ok')!;
      const liveReservation = (Number(starts.get(first.callId)?.promptEstimateTokens) * 1950 + 1024 * 9750) / 1e9;
      const liveAdmitted = Math.min(20, Math.floor(1 / liveReservation));
      const liveCharged = liveAdmitted * Number(first.costUsd);
      console.log(
        `${pack} under the live rule: ${liveAdmitted} calls admitted, Σ charged / cap = ${liveCharged.toFixed(6)}`,
      );
      console.log(
        `${pack}: ${ends.length} calls admitted of 20, Σ charged / cap = ${ratio.toFixed(6)}, ` +
          `usage billed $${billed.toFixed(6)}, overshoot rows ${ends.filter((row) => Number(row.overshootUsd) > 0).length}, ` +
          `billed prompt / live estimate up to ${overEstimate.toFixed(2)}×, / bound up to ${overBound.toFixed(2)}×`,
      );
      assert.ok(ratio <= 1, `Σ charged / cap = ${ratio}`);
      assert.ok(ends.length > 0);
      assert.ok(
        ends.every((row) => Number(row.overshootUsd) === 0),
        'a byte-level tokenizer never bills past the bound',
      );
      assert.ok(overBound <= 1, `billed ${overBound}× the bound`);
    });
  }
});
