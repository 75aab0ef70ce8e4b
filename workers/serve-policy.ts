// `trl serve`'s process: the pack's policy, one real sandbox per conversation (the TypeScript pipe
// sandbox, or the Python / data sidecar), each behind its own metered gateway to the upstream,
// routed by the front server in serving/. Only workers/ builds the Docker and OpenAI clients.
import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import type { ChatUpstream } from '../gateway/upstream/chat-upstream.ts';
import { startPolicyForSource, type PolicySource } from '../activities/agent-environment.ts';
import type { CanonicalPack } from '../packs/canonical-pack.ts';
import { packKindOf, skillFile } from '../packs/pack-format.ts';
import { bundlePack } from '../packs/bundle-pack.ts';
import { PackError } from '../packs/pack-error.ts';
import { packFailureTypes } from '../contracts/failure-types.ts';
import { loadAllowlist } from '../gateway/catalog/allowlist.ts';
import { currentWorkerIdentity } from '../sandbox/worker-identity.ts';
import { serveInstanceDir, serveShadowLogFile, serveShadowSummaryFile } from '../common/data-layout.ts';
import { InstancePool, type ServedInstance } from '../serving/instance-pool.ts';
import { startServeServer, type AnsweredRequest, type ClientGate, type ServeServer } from '../serving/serve-server.ts';
import { GenerationRouter } from '../serving/generation-router.ts';
import { ShadowMirror } from '../serving/shadow-mirror.ts';
import { packHash as packHashOf } from '../packs/canonical-pack.ts';
import { writeFileAtomic } from '../common/atomic-write.ts';
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { log } from '../common/log.ts';
import { ConfigError } from '../common/config-error.ts';
import type { ServeSettings } from './serve-settings.ts';
import { defaultPolicySandboxMemoryMb } from '../policy/host/policy-sandbox.ts';
import { defaultSidecarMemoryMb } from '../policy/sidecar/sidecar-container.ts';

/** How many instances fit: maxInstances, lowered by the memory bound at each sandbox's memory limit. */
export function instancesAllowed(settings: ServeSettings, kind: PolicySource['kind']): number {
  if (settings.memoryMb === undefined) return settings.maxInstances;
  const perInstanceMb = kind === 'typescript' ? defaultPolicySandboxMemoryMb : defaultSidecarMemoryMb;
  const fit = Math.floor(settings.memoryMb / perInstanceMb);
  if (fit < 1)
    throw new ConfigError(
      `--memory-mb ${settings.memoryMb} is less than one ${kind} policy instance needs (${perInstanceMb} MB)`,
    );
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
  /** Which generation (pack) serves each conversation; the current one takes new conversations. */
  router: GenerationRouter<InstancePool>;
  /** The current generation's pool. */
  readonly pool: InstancePool;
  /** Instances allowed at once per generation (--max-instances, lowered by --memory-mb). */
  maxInstances: number;
  /** This server run's id: instance records go under .data/serve/instances/<id>/. */
  runId: string;
  /** Shadow mode's mirror, when a shadow pack is set. */
  shadow?: ShadowMirror;
  /** The seat changed: new conversations go to `pack`; open ones finish on the old one for drainSec. */
  switchPack(pack: CanonicalPack): Promise<void>;
  close(): Promise<void>;
}

export interface ShadowSettings {
  pack: CanonicalPack;
  sampleRate: number;
  capUsd: number;
}

export async function startServing(options: {
  pack: CanonicalPack;
  docker: Docker;
  policyImage: string;
  sidecarImage?: string;
  upstream: ChatUpstream;
  settings: ServeSettings;
  gate?: ClientGate;
  shadow?: ShadowSettings;
}): Promise<Serving> {
  const { settings } = options;
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
  let generations = 0;
  // One pool per pack served (a generation); instance ids carry the generation so records never collide.
  const startGeneration = async (
    pack: CanonicalPack,
    role: 'live' | 'shadow',
  ): Promise<{ packHash: string; pool: InstancePool; maxInstances: number }> => {
    const policy = await policySourceOfPack(pack);
    const packHash = packHashOf(pack);
    const generation = `${role === 'shadow' ? 's' : 'g'}${++generations}`;
    const startInstance = async (poolId: string): Promise<ServedInstance> => {
      const id = `${generation}-${poolId}`;
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
      log.info('serve_instance_started', { id, pack: packHash, role, url: run.endpoint.url });
      return {
        id,
        url: run.endpoint.url,
        failure: () =>
          run.host.startFailure?.message ??
          run.host.sandboxLost ??
          run.host.faults.find((fault) => fault.kind === 'crash' || fault.kind === 'start_failed')?.message,
        worn: () => run.gateway.ledger.remainingUsd < settings.instanceCapUsd * wornShare,
        calls: () =>
          run.calls().map((entry) => ({
            model: entry.model,
            costUsd: entry.costUsd,
            promptTokens: 'promptTokens' in entry ? entry.promptTokens : 0,
            completionTokens: 'completionTokens' in entry ? entry.completionTokens : 0,
          })),
        stop: async () => {
          await run.stop();
        },
      };
    };
    const maxInstances =
      role === 'shadow'
        ? Math.max(1, Math.floor(instancesAllowed(settings, policy.kind) / 2))
        : instancesAllowed(settings, policy.kind);
    const pool = new InstancePool({
      maxInstances,
      idleMs: settings.idleSec * 1000,
      startInstance,
      onRetired: (instance, reason) => log.info('serve_instance_retired', { id: instance.id, reason }),
    });
    return { packHash, pool, maxInstances };
  };

  const first = await startGeneration(options.pack, 'live');
  const router = new GenerationRouter(first, {
    onClosed: (generation, reason) => log.info('serve_generation_closed', { pack: generation.packHash, reason }),
  });
  let shadowRouter: GenerationRouter<InstancePool> | undefined;
  let shadow: ShadowMirror | undefined;
  if (options.shadow) {
    const shadowGeneration = await startGeneration(options.shadow.pack, 'shadow');
    shadowRouter = new GenerationRouter(shadowGeneration);
    const logFile = serveShadowLogFile(runId);
    await mkdir(path.dirname(logFile), { recursive: true });
    shadow = new ShadowMirror({
      shadowPack: shadowGeneration.packHash,
      conversations: shadowRouter,
      sampleRate: options.shadow.sampleRate,
      capUsd: options.shadow.capUsd,
      maxInFlight: shadowGeneration.maxInstances,
      timeoutMs: settings.requestTimeoutSec * 1000,
      record: (entry) =>
        void appendFile(logFile, JSON.stringify(entry) + '\n').catch((error: Error) =>
          log.warn('serve_shadow_log_failed', { error: error.message }),
        ),
    });
  }
  // The front server waits a little longer than an instance's own request timeout, so the
  // instance's clear timeout error is what the client sees.
  const server = await startServeServer({
    conversations: router,
    host: settings.host,
    port: settings.port,
    requestTimeoutMs: settings.requestTimeoutSec * 1000 + 15_000,
    gate: options.gate,
    ...(shadow ? { onAnswered: (answered: AnsweredRequest) => shadow.mirror(answered) } : {}),
  });
  return {
    server,
    router,
    get pool() {
      return router.current.pool;
    },
    maxInstances: first.maxInstances,
    runId,
    ...(shadow ? { shadow } : {}),
    async switchPack(pack) {
      const next = await startGeneration(pack, 'live');
      log.info('serve_seat_changed', { from: router.current.packHash, to: next.packHash, drainSec: settings.drainSec });
      router.switchTo(next, settings.drainSec * 1000);
    },
    async close() {
      await server.close();
      await shadow?.settle();
      await shadowRouter?.close();
      if (shadow)
        await writeFileAtomic(serveShadowSummaryFile(runId), JSON.stringify(shadow.summary(), null, 2) + '\n');
      await router.close();
    },
  };
}
