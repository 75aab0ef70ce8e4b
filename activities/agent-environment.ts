// Everything an agent attempt runs in, started in order and torn down in reverse, whatever fails:
// the run network (Hermes), the policy run (gateway + the policy — the TypeScript pipe sandbox, or
// the Python sidecar on its own policy network — + the agent endpoint), the scenario container,
// and the agent wired to them. The watchdog starts with the agent.
import { isPolicyDriven, needsRunNetwork, type AgentName } from '../contracts/agent-kinds.ts';
import type { PreparedScenario } from '../contracts/results.ts';
import { ContainerSession } from '../sandbox/container-session.ts';
import { createRunNetwork, type RunNetwork } from '../sandbox/run-network.ts';
import { startPolicyRun, type PolicyRun, type PolicyRunSummary } from '../policy/host/policy-run.ts';
import type { PolicyFault } from '../policy/host/policy-backend.ts';
import { watchdogLimitsFromEnv } from '../policy/host/watchdog.ts';
import { startSidecar } from '../policy/sidecar/start-sidecar.ts';
import type { Allowlist } from '../gateway/catalog/allowlist.ts';
import type { ChatUpstream } from '../gateway/upstream/chat-upstream.ts';
import type { HiddenPiece } from '../gateway/injection/injection-guard.ts';
import { createAgent } from '../agents/agent-registry.ts';
import { CrashRestartingAgent } from '../agents/crash-restart.ts';
import type { ScenarioAgent } from '../agents/scenario-agent.ts';
import type { ActivityDependencies } from './activity-context.ts';
import { packFiles } from '../sandbox/tar-archive.ts';
import { skillFile } from '../packs/pack-format.ts';
import { defaultAgentDiskBudgetBytes } from '../sandbox/container-limits.ts';
import { readSetting } from '../common/settings/setting.ts';
import { workerSettings } from '../common/settings/worker-settings.ts';

/** Where the pack's SKILL.md is placed in the scenario container (the live format's place). */
export const skillFolder = '/workspace';

/** The policy of a policy-driven run: a TypeScript bundle, or a Python / data pack's files (SKILL.md is not sent to the
 * policy). */
export type PolicySource =
  | { kind: 'typescript'; bundleCode: string }
  | { kind: 'python' | 'data'; files: Record<string, string> };

export interface AgentEnvironment {
  session: ContainerSession;
  agent: ScenarioAgent;
  network?: RunNetwork;
  policyRun?: PolicyRun;
  /** The policy never became ready: the attempt fails as policy_error without running the agent. */
  startFailure?: PolicyFault;
  /** Aborted when the watchdog stops the agent (no completed model call in time). */
  stopSignal?: AbortSignal;
  /** Stops the policy run (returning its summary) and removes the container and network. */
  close(): Promise<PolicyRunSummary | undefined>;
}

/** Requests beyond the turn limit that an agent may still make (retries, auxiliary calls). */
const turnLimitSlack = 10;

/** The model `auto` stands for in a sidecar: TRL_POLICY_DEFAULT_MODEL if allowlisted, else the cheapest tool-capable
 * model. */
export function sidecarDefaultModel(
  allowlist: Allowlist,
  wanted = readSetting(workerSettings, 'TRL_POLICY_DEFAULT_MODEL'),
): string {
  if (wanted && allowlist.models.some((m) => m.id === wanted)) return wanted;
  const candidates = allowlist.models.filter((m) => m.supportsTools);
  const cost = (m: Allowlist['models'][number]) => m.pricing.inputUsdPerMillion + m.pricing.outputUsdPerMillion;
  return [...(candidates.length ? candidates : allowlist.models)].sort((a, b) => cost(a) - cost(b))[0]!.id;
}

/** What starting a policy needs of the worker's dependencies (`trl serve` has no more than this). */
export type PolicyStartDependencies = Pick<
  ActivityDependencies,
  | 'docker'
  | 'owner'
  | 'policyImage'
  | 'sidecarImage'
  | 'sidecarHealthTimeoutMs'
  | 'watchdog'
  | 'allowlist'
  | 'upstream'
  | 'budgetCapUsd'
  | 'policyRequestTimeoutMs'
>;

/**
 * The policy of a pack in its real sandbox (the TypeScript pipe sandbox, or the Python / data
 * sidecar on its own policy network) behind the gateway, with its agent endpoint on `bindHost`.
 * Scenario runs, the pre-evaluation probe and `trl serve` start policies this one way.
 */
export async function startPolicyForSource(
  deps: PolicyStartDependencies,
  request: {
    policy: PolicySource;
    workflowId: string;
    scenario: string;
    seed: number;
    tryKey?: string;
    dir: string;
    bindHost: string;
    deadlineMs: number;
    maxAgentRequests: number;
    signal?: AbortSignal;
    upstream?: ChatUpstream;
    capUsd?: number;
    /** The scenario's hidden content: every policy call is checked for it (gateway/injection/). */
    hiddenContent?: readonly HiddenPiece[];
    /** Count what the check finds without refusing (bench/coaching-corpus.ts). */
    observeInjectionOnly?: boolean;
    /** `false`: the probe's rehearsal, whose upstream is no model: no model-call or spend metrics. */
    recordMetrics?: boolean;
  },
): Promise<PolicyRun> {
  const { policy } = request;
  const sidecarImage = deps.sidecarImage;
  if (policy.kind !== 'typescript' && !sidecarImage)
    throw new Error('this worker has no policy sidecar image for python / data packs');
  return startPolicyRun({
    docker: deps.docker,
    owner: deps.owner,
    workflowId: request.workflowId,
    scenario: request.scenario,
    policyImage: deps.policyImage,
    bundleCode: policy.kind === 'typescript' ? policy.bundleCode : undefined,
    backend:
      policy.kind === 'typescript'
        ? undefined
        : async (context) =>
            (
              await startSidecar(
                {
                  docker: deps.docker,
                  owner: deps.owner,
                  workflowId: request.workflowId,
                  scenario: request.scenario,
                  image: sidecarImage!,
                  kind: policy.kind,
                  files: policy.files,
                  defaultModel: sidecarDefaultModel(deps.allowlist),
                  healthTimeoutMs: deps.sidecarHealthTimeoutMs,
                  signal: request.signal,
                },
                context,
              )
            ).backend,
    watchdog: deps.watchdog ?? watchdogLimitsFromEnv(),
    allowlist: deps.allowlist,
    upstream: request.upstream ?? deps.upstream,
    capUsd: request.capUsd ?? deps.budgetCapUsd,
    seed: request.seed,
    tryKey: request.tryKey,
    dir: request.dir,
    bindHost: request.bindHost,
    requestTimeoutMs: deps.policyRequestTimeoutMs,
    deadlineMs: request.deadlineMs,
    maxAgentRequests: request.maxAgentRequests,
    hiddenContent: request.hiddenContent,
    observeInjectionOnly: request.observeInjectionOnly,
    recordMetrics: request.recordMetrics,
  });
}

export async function startAgentEnvironment(
  deps: ActivityDependencies,
  request: {
    scenario: PreparedScenario;
    agent: AgentName;
    /** The policy; `bundleCode` alone still means a TypeScript policy. */
    policy?: PolicySource;
    bundleCode?: string;
    /** The pack's SKILL.md, placed read-only in the agent's /workspace. */
    skill?: string;
    /** Which try of the scenario this is: the workflow's round and the activity's attempt. */
    tryKey?: string;
    seed: number;
    workflowId: string;
    dir: string;
    deadlineMs: number;
    /** Cancellation of the attempt: stops waiting for the policy to start. */
    signal?: AbortSignal;
    /** A tape run: the recorded calls answer instead of the upstream. */
    upstream?: ChatUpstream;
    /** The scenario's hidden content (activities/hidden-content.ts), checked in every policy call. */
    hiddenContent?: readonly HiddenPiece[];
    /** Count what the check finds without refusing (TRL_INJECTION_CHECK=observe, for benches). */
    observeInjectionOnly?: boolean;
  },
): Promise<AgentEnvironment> {
  const { scenario } = request;
  const policy: PolicySource | undefined =
    request.policy ??
    (request.bundleCode !== undefined ? { kind: 'typescript', bundleCode: request.bundleCode } : undefined);
  // Container and network removal, run in reverse order; the policy run is stopped separately
  // because its summary (spend, faults, records) is the attempt's money trail.
  const cleanups: (() => Promise<unknown>)[] = [];
  const closeAll = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    cleanups.length = 0;
  };
  let policyRun: PolicyRun | undefined;
  try {
    const needsPolicy = isPolicyDriven(request.agent);
    // Hermes runs inside the container and must reach the policy over a network of its own;
    // the loop agent runs in the worker and needs none.
    const network = needsRunNetwork(request.agent)
      ? await createRunNetwork(deps.docker, deps.owner, request.workflowId)
      : undefined;
    if (network) cleanups.push(() => network.remove());
    if (needsPolicy) {
      if (!policy) throw new Error('a policy-driven agent needs the pack (its bundle or its files)');
      policyRun = await startPolicyForSource(deps, {
        policy,
        workflowId: request.workflowId,
        scenario: scenario.name,
        seed: request.seed,
        tryKey: request.tryKey,
        dir: request.dir,
        bindHost: network?.hostAddress ?? '127.0.0.1',
        deadlineMs: request.deadlineMs,
        maxAgentRequests: scenario.agentMaxTurns + turnLimitSlack,
        signal: request.signal,
        upstream: request.upstream,
        hiddenContent: request.hiddenContent,
        observeInjectionOnly: request.observeInjectionOnly,
      });
      if (network) await network.allowOnlyPort(policyRun.endpoint.port);
    }
    const session = await ContainerSession.start(deps.docker, {
      image: scenario.imageTag,
      role: 'agent',
      scenario: scenario.name,
      workflowId: request.workflowId,
      cpus: scenario.cpus,
      memoryMb: scenario.memoryMb,
      owner: deps.owner,
      networkMode: network?.name ?? 'none',
      storageBytes: defaultAgentDiskBudgetBytes,
      env: scenario.containerEnv,
    });
    cleanups.push(() => session.remove());
    // The pack's SKILL.md, read-only for the agent (root-owned, 0444, in a root-owned folder).
    if (request.skill !== undefined)
      await session.upload(
        await packFiles([
          { name: `${skillFolder.slice(1)}/${skillFile}`, content: Buffer.from(request.skill, 'utf8'), mode: 0o444 },
        ]),
        '/',
      );
    const created = createAgent(request.agent, {
      policyEndpointUrl: policyRun?.endpoint.url,
      maxTurns: scenario.agentMaxTurns,
    });
    // A policy-driven agent that crashes before the policy saw a request is started again.
    const endpoint = policyRun?.endpoint;
    const agent = endpoint ? new CrashRestartingAgent(created, () => endpoint.requests) : created;
    let closing: Promise<PolicyRunSummary | undefined> | undefined;
    const run = policyRun;
    const startFailure = policyRun?.host.startFailure;
    // The watchdog's clocks start with the agent (a policy that never started has nothing to watch).
    if (!startFailure) policyRun?.watchdog.start();
    return {
      session,
      agent,
      network,
      policyRun,
      startFailure,
      stopSignal: policyRun?.watchdog.signal,
      close() {
        closing ??= (async () => {
          try {
            return await run?.stop();
          } finally {
            await closeAll();
          }
        })();
        return closing;
      },
    };
  } catch (error) {
    await policyRun?.stop().catch(() => undefined);
    await closeAll();
    throw error;
  }
}
