// Python and data packs in the policy sidecar, end to end through Hermes: every example runs
// csv-sales-report with its calls metered; the sidecar reaches only the gateway (routes and
// connection attempts to local addresses only); start failures fail at once with the traceback
// in policy.log; a sidecar that never gets healthy fails with a clear message; the watchdog stops
// a policy that never completes a model call; nothing is left behind.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { repoRoot } from '../../common/data-layout.ts';
import { readPackDirectory } from '../../packs/read-pack.ts';
import { createDockerClient } from '../../sandbox/docker-client.ts';
import { bootstrap, type BootstrapResult } from '../../infra/bootstrap.ts';
import { currentWorkerIdentity } from '../../sandbox/worker-identity.ts';
import { ensureScenarioImage } from '../../sandbox/scenario-image.ts';
import { loadScenario } from '../../catalog/load-scenario.ts';
import { preparedScenarioOf } from '../support/prepared-scenario.ts';
import { containerProbes, probeScript, seasonAllowlist } from '../support/sidecar-probes.ts';
import { startAgentEnvironment, type AgentEnvironment, type PolicySource } from '../../activities/agent-environment.ts';
import type { ActivityDependencies } from '../../activities/activity-context.ts';
import { SpendLedger } from '../../gateway/spend/spend-ledger.ts';
import type { PreparedScenario } from '../../contracts/results.ts';
import { runCommand } from '../../common/run-command.ts';
import { startSimFleet, type SimFleet } from '../../simfleet/sim-fleet-server.ts';
import { temporalEndpoint } from '../../infra/temporal-server.ts';
import { containerLabels } from '../../sandbox/container-labels.ts';
import { listManagedContainers } from '../../sandbox/orphan-cleanup.ts';
import type { PolicyRunSummary } from '../../policy/host/policy-run.ts';

const docker = createDockerClient();
const { sidecarOf, execIn } = containerProbes(docker);
const examples = path.join(repoRoot, 'policy', 'examples');
const runId = `sidecar-${process.pid}`;

const packFiles = async (example: string) => (await readPackDirectory(path.join(examples, example))).files;

describe('policy sidecar', () => {
  let stack: BootstrapResult;
  let fleet: SimFleet;
  let deps: ActivityDependencies;
  let scenario: PreparedScenario;
  let instruction: string;
  const workflowIds: string[] = [];
  const networkNames: string[] = [];

  async function start(
    name: string,
    policy: PolicySource,
    overrides: Partial<ActivityDependencies> = {},
    deadlineSec = 240,
  ): Promise<AgentEnvironment> {
    const workflowId = `${runId}-${name}`;
    workflowIds.push(workflowId);
    const environment = await startAgentEnvironment(
      { ...deps, ...overrides },
      {
        scenario,
        agent: 'hermes',
        policy,
        seed: 0,
        workflowId,
        dir: await mkdtemp(path.join(os.tmpdir(), `trl-sidecar-${name}-`)),
        deadlineMs: performance.now() + deadlineSec * 1000,
      },
    );
    const networks = await docker.listNetworks({ filters: { label: [`${containerLabels.workflowId}=${workflowId}`] } });
    networkNames.push(...networks.map((n) => n.Name));
    return environment;
  }

  /** Runs Hermes as runScenario does (watchdog included) and returns the record and the run's summary. */
  async function runHermes(environment: AgentEnvironment, deadlineSec = 240) {
    const record = await environment.agent.run({
      session: environment.session,
      task: { scenario: scenario.name, scenarioDir: scenario.dir, instruction, workdir: '/app' },
      deadlineMs: performance.now() + deadlineSec * 1000,
      onTick: () => undefined,
      signal: environment.stopSignal,
    });
    const summary = (await environment.close())!;
    return { record, summary };
  }

  before(async () => {
    stack = await bootstrap(docker);
    const allowlist = await seasonAllowlist();
    fleet = await startSimFleet({ timeScale: 0, allowlist, mode: 'fast' });
    const folder = await loadScenario(path.join(repoRoot, 'scenarios', 'csv-sales-report'));
    instruction = folder.instruction;
    const imageTag = await ensureScenarioImage(docker, stack.baseImage, folder);
    scenario = preparedScenarioOf(folder, imageTag);
    deps = {
      docker,
      owner: currentWorkerIdentity(),
      baseImageTag: stack.baseImage,
      maxAgentOutputBytes: 1 << 24,
      allowlist,
      upstream: new OpenAI({ baseURL: fleet.url, apiKey: 'upstream-key', maxRetries: 0 }),
      policyImage: stack.policyImage,
      sidecarImage: stack.sidecarImage,
      budgetCapUsd: 1,
      policyRequestTimeoutMs: 60_000,
      spendLedger: await SpendLedger.open({
        dir: await mkdtemp(path.join(os.tmpdir(), 'trl-spend-')),
        ceilings: { submissionUsd: 30, dailyUsd: 500 },
      }),
    };
  });
  after(async () => fleet?.close());

  const endToEnd: [string, 'python' | 'data'][] = [
    ['pin-glm-flash', 'data'],
    ['escalate-on-trouble', 'data'],
    ['flash-advisers', 'data'],
    ['sdk-cascade', 'python'],
    ['raw-proxy', 'python'],
  ];
  for (const [example, kind] of endToEnd) {
    test(`${example} (${kind}) runs csv-sales-report through Hermes, every call metered`, async () => {
      const environment = await start(example, { kind, files: await packFiles(example) });
      assert.equal(environment.startFailure, undefined);
      const { record, summary } = await runHermes(environment);
      assert.equal(record.timedOut, false, record.transcript.slice(-2000));
      assert.equal(record.exitCode, 0, record.transcript.slice(-2000));
      assert.deepEqual(summary.faults, [], await readFile(summary.policyLog.path, 'utf8'));
      assert.ok(
        summary.agentRequests >= 2 && summary.calls >= summary.agentRequests && summary.costUsd > 0,
        JSON.stringify(summary),
      );
      const rows = (await readFile(summary.callLog.path, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      // A call is a start row when reserved and an end row when settled; refused calls one row.
      const calls = rows.filter((row) => row.phase !== 'start');
      assert.equal(
        rows.filter((row) => row.phase === 'start').length,
        rows.filter((row) => row.phase === 'end').length,
        'every started call ended',
      );
      const turns = (await readFile(summary.turnLog.path, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      // The sim fleet injects rate limits and server errors now and then: those calls are logged too.
      assert.ok(
        calls.every((c) => (c.status === 'ok' ? c.costUsd > 0 : c.status === 'error')),
        JSON.stringify(calls.map((c) => [c.status, c.errorType, c.costUsd])),
      );
      assert.ok(
        Math.abs(calls.reduce((sum, c) => sum + c.costUsd, 0) - summary.costUsd) < 1e-9,
        'the call log holds every cent',
      );
      const turnIds = new Set(turns.map((t) => t.requestId));
      assert.ok(
        calls.every((c) => turnIds.has(c.requestId)),
        'calls join the turn log by request id',
      );
      assert.ok(
        turns.every((t) => t.response && !t.error),
        'every turn records what the agent received',
      );
      // Honest policies pass model output on, whatever their kind: provenance stays at 1.
      assert.ok(
        summary.provenance.units > 0 && summary.provenance.coverage >= 0.95,
        JSON.stringify(summary.provenance),
      );
    });
  }

  test('the sidecar reaches only the gateway; the agent and the sidecar cannot reach each other', async () => {
    const environment = await start('isolation', { kind: 'python', files: await packFiles('raw-proxy') });
    const listeners: net.Server[] = [];
    try {
      const sidecar = await sidecarOf(`${runId}-isolation`);
      const sidecarInfo = await sidecar.inspect();
      const [policyNetworkName, sidecarNet] = Object.entries(sidecarInfo.NetworkSettings.Networks)[0]!;
      assert.match(policyNetworkName, /^trl-pol-/);
      const policyNetwork = (await docker.getNetwork(policyNetworkName).inspect()) as {
        IPAM: { Config: { Gateway: string; Subnet: string }[] };
        Options: Record<string, string>;
      };
      const hostAddress = policyNetwork.IPAM.Config[0]!.Gateway;
      const bridge = policyNetwork.Options['com.docker.network.bridge.name']!;
      const upstream = (sidecarInfo.Config.Env ?? [])
        .find((v) => v.startsWith('UPSTREAM_URL='))!
        .slice('UPSTREAM_URL='.length);
      const gatewayPort = Number(new URL(upstream).port);
      assert.equal(new URL(upstream).hostname, hostAddress);
      assert.equal(sidecarInfo.HostConfig.ReadonlyRootfs, true);
      assert.equal(sidecarInfo.HostConfig.Memory, 1024 * 1024 * 1024);
      assert.equal(sidecarInfo.HostConfig.NanoCpus, 1e9);
      assert.ok((sidecarInfo.HostConfig.PidsLimit ?? 0) > 0);
      assert.equal(sidecarInfo.HostConfig.LogConfig?.Config?.['max-size'], '1m');
      assert.equal(sidecarInfo.Config.User, '65534:65534');
      assert.deepEqual(
        sidecarInfo.Mounts.map((m) => [m.Destination, m.RW]),
        [['/policy', false]],
      );

      // Routes: every next hop is the host's address on the policy network, which forwards nothing off it.
      const routes = await execIn(sidecar, ['cat', '/proc/net/route']);
      const hexToIp = (hex: string) =>
        hex
          .match(/../g)!
          .reverse()
          .map((b) => parseInt(b, 16))
          .join('.');
      const hops = routes
        .split('\n')
        .slice(1)
        .map((line) => line.split(/\s+/)[2]!)
        .filter((g) => g !== '00000000')
        .map(hexToIp);
      assert.ok(
        hops.every((hop) => hop === hostAddress),
        `next hops: ${hops.join(', ')}`,
      );
      assert.match((await runCommand('iptables', ['-S', 'FORWARD'])).stdout, new RegExp(`-i ${bridge} .*-j DROP`));
      assert.match((await runCommand('ip6tables', ['-S', 'INPUT'])).stdout, new RegExp(`-i ${bridge} .*-j DROP`));

      const probe = (host: string, port: number) => execIn(sidecar, ['python3', '-c', probeScript(host, port)]);
      const other = net.createServer((socket) => socket.end('nope'));
      await new Promise<void>((resolve) => other.listen(0, '0.0.0.0', resolve));
      listeners.push(other);
      const temporalPort = Number(temporalEndpoint().address.split(':')[1]);
      const agentAddress = Object.values((await environment.session.container.inspect()).NetworkSettings.Networks)[0]!
        .IPAddress;
      const endpointPort = environment.policyRun!.endpoint.port;
      assert.equal(await probe(hostAddress, gatewayPort), 'connected', 'the gateway is the one way out');
      assert.match(
        await probe(hostAddress, (other.address() as net.AddressInfo).port),
        /timeout|ConnectionRefused/i,
        'a host listener on 0.0.0.0',
      );
      assert.match(await probe(hostAddress, temporalPort), /timeout|ConnectionRefused/i, 'the Temporal port');
      assert.match(await probe(hostAddress, endpointPort), /timeout|ConnectionRefused/i, "the agent's endpoint port");
      assert.match(
        await probe(environment.network!.hostAddress, endpointPort),
        /timeout|ConnectionRefused|unreachable/i,
        'the agent endpoint on the run network',
      );
      assert.match(await probe(agentAddress, 22), /timeout|unreachable/i, 'the agent container');
      assert.match(await probe('127.0.0.1', gatewayPort), /ConnectionRefused/, "the sidecar's loopback is its own");
      // IPv6: the bridge's link-local address, with a host listener on [::].
      const linkLocal = (
        await runCommand('ip', ['-6', '-o', 'addr', 'show', 'dev', bridge], { allowFailure: true })
      ).stdout.match(/inet6 (fe80::[0-9a-f:]+)\//)?.[1];
      if (linkLocal) {
        const six = net.createServer((socket) => socket.end('nope'));
        await new Promise<void>((resolve) => six.listen(0, '::', resolve));
        listeners.push(six);
        assert.match(
          await probe(`${linkLocal}%eth0`, (six.address() as net.AddressInfo).port),
          /timeout|ConnectionRefused|unreachable|OSError/i,
          'the host over IPv6 link-local',
        );
      }
      // And the other way: the agent container cannot reach the sidecar.
      const fromAgent = await environment.session.exec({
        command: ['python3', '-c', probeScript(sidecarNet.IPAddress, 8800)],
        user: 'agent',
        deadlineMs: performance.now() + 15_000,
      });
      assert.match(fromAgent.stdout.trim(), /timeout|unreachable/i, 'the agent container reached the sidecar');
    } finally {
      for (const listener of listeners) listener.close();
      await environment.close();
    }
  });

  test('a policy.py that raises at import fails at once, its traceback in policy.log', async () => {
    const environment = await start('import-error', {
      kind: 'python',
      files: { 'SKILL.md': '# skill\n', 'policy.py': 'import os\nraise RuntimeError("boom at import")\n' },
    });
    assert.equal(environment.startFailure?.kind, 'start_failed');
    assert.match(environment.startFailure!.message, /exited with code 1 before it answered GET \/v1\/models/);
    assert.match(environment.startFailure!.message, /RuntimeError: boom at import/);
    const summary = (await environment.close()) as PolicyRunSummary;
    assert.equal(summary.faults[0]?.kind, 'start_failed');
    const log = await readFile(summary.policyLog.path, 'utf8');
    assert.match(log, /Traceback \(most recent call last\)/);
    assert.match(log, /RuntimeError: boom at import/);
    assert.equal(summary.calls, 0);
  });

  test('a policy that never answers health fails with a clear message at the limit', async () => {
    const environment = await start(
      'never-healthy',
      { kind: 'python', files: { 'policy.py': 'import time\nprint("thinking", flush=True)\ntime.sleep(3600)\n' } },
      { sidecarHealthTimeoutMs: 3000 },
    );
    assert.equal(environment.startFailure?.message, 'the policy did not answer GET /v1/models within 3 s');
    const summary = (await environment.close()) as PolicyRunSummary;
    assert.match(await readFile(summary.policyLog.path, 'utf8'), /thinking/);
  });

  test('the watchdog stops an agent whose policy never completes a model call', async () => {
    // Healthy, but every completion hangs: no model call ever completes.
    const hang = [
      'import asyncio, os',
      'from aiohttp import web',
      'async def models(_): return web.json_response({"object": "list", "data": [{"id": "auto", "object": "model"}]})',
      'async def chat(_):',
      '    await asyncio.sleep(3600)',
      'app = web.Application()',
      'app.router.add_get("/v1/models", models)',
      'app.router.add_post("/v1/chat/completions", chat)',
      'web.run_app(app, port=int(os.environ["POLICY_PORT"]), print=None)',
    ].join('\n');
    const environment = await start(
      'watchdog',
      { kind: 'python', files: { 'policy.py': hang } },
      { watchdog: { firstCallMs: 4000, idleMs: 8000 } },
    );
    const { record, summary } = await runHermes(environment);
    assert.equal(record.timedOut, false);
    assert.ok(
      summary.faults.some(
        (f) =>
          f.kind === 'watchdog' &&
          f.message === 'watchdog: no completed model call in the first 4 s the agent waited on the policy',
      ),
      JSON.stringify(summary.faults),
    );
  });

  test('nothing is left behind: containers, networks, firewall rules', async () => {
    for (const workflowId of workflowIds) {
      const containers = await listManagedContainers(docker, [`${containerLabels.workflowId}=${workflowId}`]);
      assert.deepEqual(
        containers.map((c) => c.Names),
        [],
        `containers of ${workflowId}`,
      );
      const networks = await docker.listNetworks({
        filters: { label: [`${containerLabels.workflowId}=${workflowId}`] },
      });
      assert.deepEqual(
        networks.map((n) => n.Name),
        [],
        `networks of ${workflowId}`,
      );
    }
    assert.ok(
      networkNames.some((name) => name.startsWith('trl-pol-')) &&
        networkNames.some((name) => name.startsWith('trl-run-')),
    );
    for (const table of ['iptables', 'ip6tables']) {
      const rules = (await runCommand(table, ['-S'])).stdout;
      const left = networkNames.filter((name) => rules.includes(name));
      assert.deepEqual(left, [], `${table} rules left behind`);
    }
  });
});
