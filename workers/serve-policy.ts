// `trl serve`'s process: the pack's policy, one real sandbox per conversation (the TypeScript pipe
// sandbox, or the Python / data sidecar), each behind its own metered gateway to the upstream,
// routed by the front server in policy/serve/. Only workers/ builds the Docker and OpenAI clients.
import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import type OpenAI from 'openai';
import { startPolicyForSource, type PolicySource } from '../activities/agent-environment.ts';
import type { CanonicalPack } from '../packs/canonical-pack.ts';
import { packKindOf, skillFile } from '../packs/pack-format.ts';
import { bundlePack } from '../packs/bundle-pack.ts';
import { PackError } from '../packs/pack-error.ts';
import { packFailureTypes } from '../contracts/failure-types.ts';
import { loadAllowlist } from '../gateway/catalog/allowlist.ts';
import { currentWorkerIdentity } from '../sandbox/worker-identity.ts';
import { serveInstanceDir } from '../common/data-layout.ts';
import { InstancePool, type ServedInstance } from '../policy/serve/instance-pool.ts';
import { startServeServer, type ClientGate, type ServeServer } from '../policy/serve/serve-server.ts';
import { log } from '../common/log.ts';
import { ConfigError } from '../common/config-error.ts';
import { defaultPolicySandboxMemoryMb } from '../policy/host/policy-sandbox.ts';
import { defaultSidecarMemoryMb } from '../policy/sidecar/sidecar-container.ts';

export interface ServeSettings {
  /** Address the front server binds (loopback by default: sandboxes can reach 0.0.0.0 listeners). */
  host: string;
  port: number;
  maxInstances: number;
  idleSec: number;
  /** The budget cap of each instance's gateway; an instance near it is retired after its request. */
  instanceCapUsd: number;
  requestTimeoutSec: number;
  /** Memory all instances may hold together (each at its sandbox's limit); bounds maxInstances further. */
  memoryMb?: number;
}

export const defaultServeSettings: ServeSettings = { host: '127.0.0.1', port: 8300, maxInstances: 4, idleSec: 600, instanceCapUsd: 50, requestTimeoutSec: 300 };

/** How many instances fit: maxInstances, lowered by the memory bound at each sandbox's memory limit. */
export function instancesAllowed(settings: ServeSettings, kind: PolicySource['kind']): number {
  if (settings.memoryMb === undefined) return settings.maxInstances;
  const perInstanceMb = kind === 'typescript' ? defaultPolicySandboxMemoryMb : defaultSidecarMemoryMb;
  const fit = Math.floor(settings.memoryMb / perInstanceMb);
  if (fit < 1) throw new ConfigError(`--memory-mb ${settings.memoryMb} is less than one ${kind} policy instance needs (${perInstanceMb} MB)`);
  return Math.min(settings.maxInstances, fit);
}

/** An instance whose gateway has less than this share of its cap left is retired after its request. */
const wornShare = 0.02;

export async function policySourceOfPack(pack: CanonicalPack): Promise<PolicySource> {
  const kind = packKindOf(pack);
  if (kind === 'typescript') return { kind, bundleCode: (await bundlePack(pack)).code };
  if (kind === 'python' || kind === 'data') {
    const { [skillFile]: _skill, ...files } = pack.files;
    return { kind, files };
  }
  throw new PackError(packFailureTypes.invalid, 'the pack has no single entry (policy.ts, policy.py or policy.json)');
}

export interface Serving {
  server: ServeServer;
  pool: InstancePool;
  /** Instances allowed at once (--max-instances, lowered by --memory-mb). */
  maxInstances: number;
  /** This server run's id: instance records go under .data/serve/instances/<id>/. */
  runId: string;
  close(): Promise<void>;
}

export async function startServing(options: {
  pack: CanonicalPack;
  docker: Docker;
  policyImage: string;
  sidecarImage?: string;
  upstream: OpenAI;
  settings: ServeSettings;
  gate?: ClientGate;
}): Promise<Serving> {
  const { settings } = options;
  const policy = await policySourceOfPack(options.pack);
  const runId = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
  const deps = {
    docker: options.docker,
    owner: currentWorkerIdentity(),
    policyImage: options.policyImage,
    sidecarImage: options.sidecarImage,
    allowlist: loadAllowlist(),
    upstream: options.upstream,
    budgetCapUsd: settings.instanceCapUsd,
    policyRequestTimeoutMs: settings.requestTimeoutSec * 1000,
  };
  const startInstance = async (id: string): Promise<ServedInstance> => {
    const run = await startPolicyForSource(deps, {
      policy,
      workflowId: `serve-${runId}-${id}`,
      scenario: 'serve',
      seed: 0,
      dir: serveInstanceDir(runId, id),
      bindHost: '127.0.0.1',
      // Served conversations have no deadline and no turn limit; the pool reaps idle instances.
      deadlineMs: Infinity,
      maxAgentRequests: Number.MAX_SAFE_INTEGER,
    });
    log.info('serve_instance_started', { id, url: run.endpoint.url });
    return {
      id,
      url: run.endpoint.url,
      failure: () => run.host.startFailure?.message ?? run.host.sandboxLost ?? run.host.faults.find((fault) => fault.kind === 'crash' || fault.kind === 'start_failed')?.message,
      worn: () => run.gateway.ledger.remainingUsd < settings.instanceCapUsd * wornShare,
      calls: () => run.calls().map((entry) => ({ model: entry.model, costUsd: entry.costUsd, promptTokens: 'promptTokens' in entry ? entry.promptTokens : 0, completionTokens: 'completionTokens' in entry ? entry.completionTokens : 0 })),
      stop: async () => { await run.stop(); },
    };
  };
  const maxInstances = instancesAllowed(settings, policy.kind);
  const pool = new InstancePool({
    maxInstances,
    idleMs: settings.idleSec * 1000,
    startInstance,
    onRetired: (instance, reason) => log.info('serve_instance_retired', { id: instance.id, reason }),
  });
  // The front server waits a little longer than an instance's own request timeout, so the
  // instance's clear timeout error is what the client sees.
  const server = await startServeServer({ pool, host: settings.host, port: settings.port, requestTimeoutMs: settings.requestTimeoutSec * 1000 + 15_000, gate: options.gate });
  return {
    server,
    pool,
    maxInstances,
    runId,
    async close() {
      await server.close();
      await pool.close();
    },
  };
}
