// Hermes in its scenario sandbox, checked from inside: no credential in its environment or files,
// no route out, only the policy endpoint reachable on this machine — not the Temporal port, not
// another host listener, not the gateway — and then the real agent solves the task through a policy.
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
import { ensureScenarioImage } from '../../sandbox/scenario-image.ts';
import { loadScenario } from '../../catalog/load-scenario.ts';
import { preparedScenarioOf } from '../support/prepared-scenario.ts';
import { startAgentEnvironment, type AgentEnvironment } from '../../activities/agent-environment.ts';
import type { ActivityDependencies } from '../../activities/activity-context.ts';
import { SpendLedger } from '../../gateway/spend/spend-ledger.ts';
import type { PreparedScenario } from '../../contracts/results.ts';
import { runCommand } from '../../common/run-command.ts';
import { startSimFleet, type SimFleet } from '../../simfleet/sim-fleet-server.ts';
import { temporalEndpoint } from '../../infra/temporal-server.ts';

const docker = createDockerClient();
const canary = `trl-canary-${process.pid}-do-not-leak`;

/** A TCP connection attempt from inside the agent container, as the agent user. */
async function probe(environment: AgentEnvironment, host: string, port: number): Promise<string> {
  const script = `import socket\ns=socket.socket()\ns.settimeout(2)\ntry:\n  s.connect((${JSON.stringify(host)},${port}))\n  print('connected')\nexcept Exception as e:\n  print(type(e).__name__)`;
  const result = await environment.session.exec({
    command: ['python3', '-c', script],
    user: 'agent',
    deadlineMs: performance.now() + 15_000,
  });
  return result.stdout.trim();
}

describe('Hermes sandbox', () => {
  let stack: BootstrapResult;
  let fleet: SimFleet;
  let environment: AgentEnvironment;
  let deps: ActivityDependencies;
  let scenario: PreparedScenario;
  const listeners: net.Server[] = [];

  before(async () => {
    stack = await bootstrap(docker);
    fleet = await startSimFleet({ timeScale: 0, mode: 'fast' });
    const folder = await loadScenario(path.join(repoRoot, 'scenarios', 'csv-sales-report'));
    const imageTag = await ensureScenarioImage(docker, stack.baseImage, folder);
    scenario = preparedScenarioOf(folder, imageTag);
    deps = {
      docker,
      owner: currentWorkerIdentity(),
      baseImageTag: stack.baseImage,
      maxAgentOutputBytes: 1 << 24,
      allowlist: loadAllowlist(),
      // The upstream credential is a canary: it must never show up anywhere the agent can look.
      upstream: new OpenAI({ baseURL: fleet.url, apiKey: canary, maxRetries: 0 }),
      policyImage: stack.policyImage,
      budgetCapUsd: 1,
      policyRequestTimeoutMs: 60_000,
      spendLedger: await SpendLedger.open({
        dir: await mkdtemp(path.join(os.tmpdir(), 'trl-spend-')),
        ceilings: { submissionUsd: 30, dailyUsd: 500 },
      }),
    };
    process.env.TRL_TEST_CANARY = canary;
    const bundle = await bundlePack(await readPackDirectory(path.join(repoRoot, 'policy', 'examples', 'single-model')));
    environment = await startAgentEnvironment(deps, {
      scenario,
      agent: 'hermes',
      bundleCode: bundle.code,
      seed: 0,
      workflowId: `hermes-sandbox-${process.pid}`,
      dir: await mkdtemp(path.join(os.tmpdir(), 'trl-hermes-')),
      deadlineMs: performance.now() + 300_000,
    });
  });
  after(async () => {
    await environment?.close();
    for (const listener of listeners) listener.close();
    await fleet?.close();
    delete process.env.TRL_TEST_CANARY;
  });

  test('every route leads to the host, which forwards nothing off the run subnet', async () => {
    const network = environment.network!;
    const routes = await environment.session.exec({
      command: ['cat', '/proc/net/route'],
      deadlineMs: performance.now() + 10_000,
    });
    const hexToIp = (hex: string) =>
      hex
        .match(/../g)!
        .reverse()
        .map((b) => parseInt(b, 16))
        .join('.');
    const gateways = routes.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(/\s+/)[2]!)
      .filter((g) => g !== '00000000')
      .map(hexToIp);
    assert.ok(
      gateways.every((g) => g === network.hostAddress),
      `next hops: ${gateways.join(', ')}`,
    );
    const forward = await runCommand('iptables', ['-S', 'FORWARD']);
    assert.match(
      forward.stdout,
      new RegExp(`-A FORWARD ! -d ${network.subnet.replace(/[./]/g, '\\$&')} -i ${network.bridgeInterface} .*-j DROP`),
    );
  });

  test('no credential in the container environment or files', async () => {
    const inspected = await environment.session.container.inspect();
    const env = inspected.Config.Env ?? [];
    assert.ok(!env.some((v) => /KEY|TOKEN|SECRET|TRL_|canary/i.test(v)), `container environment: ${env.join(' ')}`);
    const grep = await environment.session.exec({
      command: [
        'sh',
        '-c',
        `grep -rIl --exclude-dir=proc --exclude-dir=sys --exclude-dir=dev ${canary} / 2>/dev/null; echo done`,
      ],
      deadlineMs: performance.now() + 120_000,
    });
    assert.equal(grep.stdout.trim(), 'done', `the upstream key was found in: ${grep.stdout}`);
  });

  test('only the policy endpoint is reachable: not Temporal, not other host listeners, not loopback services', async () => {
    const network = environment.network!;
    const endpointPort = environment.policyRun!.endpoint.port;
    const other = net.createServer((socket) => socket.end('nope'));
    await new Promise<void>((resolve) => other.listen(0, '0.0.0.0', resolve));
    listeners.push(other);
    const otherPort = (other.address() as net.AddressInfo).port;
    const temporalPort = Number(temporalEndpoint().address.split(':')[1]);
    assert.equal(await probe(environment, network.hostAddress, endpointPort), 'connected');
    assert.match(
      await probe(environment, network.hostAddress, otherPort),
      /timeout|ConnectionRefused/i,
      'a host listener on 0.0.0.0 must not be reachable',
    );
    assert.match(await probe(environment, network.hostAddress, temporalPort), /timeout|ConnectionRefused/i);
    // A listener on another of the project's own networks: a local address outside the allowed set.
    const otherNetwork = await docker.createNetwork({ Name: `trl-test-other-${process.pid}`, Internal: true });
    try {
      const otherAddress = ((await otherNetwork.inspect()) as { IPAM: { Config: { Gateway: string }[] } }).IPAM
        .Config[0]!.Gateway;
      const elsewhere = net.createServer((socket) => socket.end('nope'));
      await new Promise<void>((resolve) => elsewhere.listen(0, otherAddress, resolve));
      listeners.push(elsewhere);
      assert.match(
        await probe(environment, otherAddress, (elsewhere.address() as net.AddressInfo).port),
        /timeout|ConnectionRefused|unreachable/i,
      );
    } finally {
      for (const listener of listeners.splice(1)) listener.close();
      await otherNetwork.remove().catch(() => undefined);
    }
    assert.match(
      await probe(environment, '127.0.0.1', endpointPort),
      /ConnectionRefused/,
      "the container's loopback is its own",
    );
    const rules = await runCommand('iptables', ['-S', 'INPUT']);
    assert.match(rules.stdout, new RegExp(`-i ${network.bridgeInterface} .*--dport ${endpointPort} .*ACCEPT`));
    assert.match(rules.stdout, new RegExp(`-i ${network.bridgeInterface} .*DROP`));
  });

  test('Hermes solves the task through the policy, and the run leaves no network or rules behind', async () => {
    const record = await environment.agent.run({
      session: environment.session,
      task: {
        scenario: scenario.name,
        scenarioDir: scenario.dir,
        instruction: (await loadScenario(scenario.dir)).instruction,
        workdir: '/app',
      },
      deadlineMs: performance.now() + 240_000,
      onTick: () => undefined,
    });
    assert.equal(record.timedOut, false);
    const report = await environment.session.exec({
      command: ['cat', '/app/report.json'],
      deadlineMs: performance.now() + 10_000,
    });
    assert.equal(JSON.parse(report.stdout).valid_orders, 178);
    const network = environment.network!;
    const summary = await environment.close();
    assert.ok(summary && summary.agentRequests >= 2 && summary.costUsd > 0);
    assert.deepEqual(summary.faults, []);
    assert.ok(summary.turnLog.sizeBytes > 0);
    const rules = await runCommand('iptables', ['-S', 'INPUT']);
    assert.ok(!rules.stdout.includes(network.name), 'firewall rules left behind');
    await assert.rejects(docker.getNetwork(network.name).inspect(), /404|no such network/i);
  });
});
