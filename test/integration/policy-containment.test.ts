// Hostile policies in the real policy sandbox: each attempt (read files, reach the network, read
// secrets, fork without bound, allocate without bound, hang, answer garbage, overspend) fails
// cleanly, is recorded, and the host goes on serving.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import net from 'node:net';
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
import { startPolicyRun, type PolicyRun } from '../../policy/host/policy-run.ts';
import { listManagedContainers } from '../../sandbox/orphan-cleanup.ts';
import { containerLabels } from '../../sandbox/container-labels.ts';
import { startSimFleet, type SimFleet } from '../../simfleet/sim-fleet-server.ts';
import { waitFor } from '../support/worker-process.ts';

const fixtures = path.join(repoRoot, 'test', 'fixtures', 'policies');
const docker = createDockerClient();

describe('policy sandbox containment', () => {
  let stack: BootstrapResult;
  let fleet: SimFleet;
  let upstream: OpenAI;
  const listeners: net.Server[] = [];
  const cleanups: (() => Promise<unknown>)[] = [];
  const workflowId = `containment-${process.pid}`;

  before(async () => {
    stack = await bootstrap(docker);
    fleet = await startSimFleet({ timeScale: 0, mode: 'fast' });
    upstream = new OpenAI({ baseURL: fleet.url, apiKey: 'x', maxRetries: 0 });
  });
  after(async () => {
    for (const listener of listeners) listener.close();
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
    await fleet?.close();
  });

  async function run(policy: string, options: { requestTimeoutMs?: number; capUsd?: number } = {}): Promise<PolicyRun> {
    const bundle = await bundlePack(await readPackDirectory(path.join(fixtures, policy)));
    return startPolicyRun({
      docker,
      owner: currentWorkerIdentity(),
      workflowId,
      scenario: policy,
      policyImage: stack.policyImage,
      bundleCode: bundle.code,
      allowlist: loadAllowlist(),
      upstream,
      capUsd: options.capUsd ?? 1,
      seed: 0,
      dir: await mkdtemp(path.join(os.tmpdir(), 'trl-policy-run-')),
      bindHost: '127.0.0.1',
      requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    });
  }

  async function ask(policyRun: PolicyRun, content: string) {
    const response = await fetch(`${policyRun.endpoint.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'auto', messages: [{ role: 'user', content }] }),
    });
    return {
      status: response.status,
      body: (await response.json()) as {
        choices?: { message: { content: string } }[];
        error?: { type: string; code: string };
      },
    };
  }

  async function listen(host: string): Promise<number> {
    const server = net.createServer((socket) => socket.end('hello'));
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    listeners.push(server);
    return (server.address() as net.AddressInfo).port;
  }

  test('no scenario files, no writable root, no secrets, no network: not even the host', async () => {
    // The project's own internal network: its bridge address is this machine's, and a listener there
    // is what a sandbox on such a network could reach; the policy sandbox must not.
    const network = await docker.createNetwork({
      Name: `trl-test-${process.pid}`,
      Internal: true,
      Labels: { [containerLabels.managed]: '1' },
    });
    const bridge = ((await network.inspect()) as { IPAM?: { Config?: { Gateway?: string }[] } }).IPAM?.Config?.[0]
      ?.Gateway as string;
    cleanups.push(() => network.remove());
    assert.match(bridge, /^\d+\.\d+\.\d+\.\d+$/);
    const loopbackPort = await listen('127.0.0.1');
    const bridgePort = await listen(bridge);
    process.env.TRL_TEST_SECRET = 'must-not-leak';
    const policyRun = await run('probe-sandbox');
    try {
      const { status, body } = await ask(
        policyRun,
        JSON.stringify({
          connect: [
            { host: '127.0.0.1', port: loopbackPort },
            { host: bridge, port: bridgePort },
          ],
        }),
      );
      assert.equal(status, 200);
      const report = JSON.parse(body.choices![0]!.message.content);
      for (const file of [
        '/app/data/sales.csv',
        '/tests/test_outputs.py',
        '/solution/solve.sh',
        '/work/main/gateway/catalog/models.json',
      ])
        assert.equal(report[file], 'ENOENT', file);
      assert.equal(report['write /policy/evil.txt'], 'EROFS');
      assert.equal(report['write /etc/evil.txt'], 'EROFS');
      assert.equal(report.uid, 65534);
      assert.deepEqual(report.interfaces, ['lo']);
      assert.ok(
        !report.env.some((name: string) => /TRL_|KEY|TOKEN|SECRET/.test(name)),
        `environment leaked: ${report.env}`,
      );
      assert.equal(report.connect[0], `127.0.0.1:${loopbackPort} ECONNREFUSED`);
      assert.match(report.connect[1], /ENETUNREACH|EHOSTUNREACH|timeout/);
    } finally {
      await policyRun.stop();
      delete process.env.TRL_TEST_SECRET;
    }
  });

  test('a fork bomb is stopped by the pids limit and the policy still answers', async () => {
    const policyRun = await run('fork-bomb');
    try {
      const { status, body } = await ask(policyRun, 'go');
      assert.equal(status, 200);
      const result = JSON.parse(body.choices![0]!.message.content);
      assert.ok(result.started < 64, `started ${result.started} processes`);
      assert.equal(result.stoppedBy, 'EAGAIN');
    } finally {
      await policyRun.stop();
    }
  });

  test('a memory bomb kills only the policy: recorded as a crash, the host answers with errors', async () => {
    const policyRun = await run('memory-bomb');
    const first = await ask(policyRun, 'go');
    assert.equal(first.status, 502);
    assert.equal(first.body.error?.type, 'policy_error');
    const second = await ask(policyRun, 'again');
    assert.equal(second.status, 503);
    const summary = await policyRun.stop();
    assert.ok(
      summary.faults.some((f) => f.kind === 'crash'),
      JSON.stringify(summary.faults),
    );
  });

  test("a policy sandbox killed from outside mid-request is the infrastructure's loss, not a policy crash", async () => {
    const policyRun = await run('hang', { requestTimeoutMs: 120_000 });
    const pending = ask(policyRun, 'go');
    await waitFor(
      async () => (policyRun.endpoint.requests >= 1 ? true : undefined),
      30_000,
      'the request to reach the policy',
    );
    const [container] = (
      await listManagedContainers(docker, [
        `${containerLabels.workflowId}=${workflowId}`,
        `${containerLabels.scenario}=hang`,
        `${containerLabels.role}=policy`,
      ])
    ).filter((c) => c.State === 'running');
    assert.ok(container, 'the policy runs in its own container');
    await docker.getContainer(container.Id).kill();
    const { status, body } = await pending;
    assert.equal(status, 502, JSON.stringify(body));
    assert.equal((await ask(policyRun, 'again')).status, 503);
    const summary = await policyRun.stop();
    assert.match(summary.sandboxLost ?? '', /killed from outside/);
    assert.deepEqual(summary.faults, [], 'no fault of the policy is recorded for the kill');
  });

  test('a policy that never answers times out per request', async () => {
    const policyRun = await run('hang', { requestTimeoutMs: 1500 });
    const { status, body } = await ask(policyRun, 'go');
    assert.equal(status, 504);
    assert.equal(body.error?.code, 'timeout');
    const summary = await policyRun.stop();
    assert.equal(summary.faults[0]?.kind, 'timeout');
    assert.match(summary.faults[0]!.message, /within 1\.5s/, "the run's own request timeout, not a default");
  });

  test('a malformed answer is a policy error; a log flood stays bounded', async () => {
    const policyRun = await run('malformed');
    const { status, body } = await ask(policyRun, 'go');
    assert.equal(status, 502);
    assert.equal(body.error?.code, 'malformed_response');
    const summary = await policyRun.stop();
    assert.ok(summary.policyLog.sizeBytes < 5 * 1024 * 1024, `policy log is ${summary.policyLog.sizeBytes} bytes`);
    assert.ok(summary.faults.some((f) => f.kind === 'malformed_response'));
  });

  test('100 parallel greedy calls through the real sandbox never pass the cap', async () => {
    const policyRun = await run('greedy-spender', { capUsd: 0.05 });
    try {
      for (let i = 0; i < 3; i++) {
        const { status } = await ask(policyRun, `spend it all ${i}`);
        assert.equal(status, 200);
      }
    } finally {
      const summary = await policyRun.stop();
      assert.ok(summary.costUsd <= 0.05 + 1e-9, `spent ${summary.costUsd}`);
      assert.ok(summary.budgetRefusals > 0);
      assert.equal(summary.calls, 300);
    }
  });

  test('no policy container is left behind', async () => {
    assert.deepEqual(await listManagedContainers(docker, [`${containerLabels.workflowId}=${workflowId}`]), []);
  });
});
