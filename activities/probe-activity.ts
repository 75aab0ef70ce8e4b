// probePolicy: the pre-evaluation probe, at $0. The pack's policy runs in its real sandbox against
// each scenario's opening conversation (screening/probe/), with a bland upstream answering every call and
// tool results from the scenario's built image when this worker has it (probe-environment.ts);
// the verdict rejects a policy that authors what the agent receives or carries scenario content in.
// A verdict already reached for the same pack, scenarios and opening is reused (probe-cache.ts).
import path from 'node:path';
import { Context } from '@temporalio/activity';
import type { PackRef, ProbeResult, ScenarioDescriptor } from '../contracts/results.ts';
import { probeLimits } from '../contracts/probe.ts';
import { artifactNames, probeScenarioDir, runDir } from '../common/data-layout.ts';
import { writeArtifact } from '../common/write-artifact.ts';
import { loadScenario } from '../catalog/load-scenario.ts';
import { hermesOpening, type HermesOpening } from '../agents/hermes-opening.ts';
import { createBlandUpstream } from '../screening/probe/bland-upstream.ts';
import { playConversation } from '../screening/probe/probe-conversation.ts';
import { probeEnvironment, type ProbeEnvironment } from '../screening/probe/probe-environment.ts';
import type { InjectionSummary } from '../contracts/injection.ts';
import { hiddenPiecesOfAll } from './hidden-content.ts';
import { probeVerdict, type ProbeReport, type ScenarioProbe } from '../screening/probe/probe-verdict.ts';
import { FileProbeCache, probeOnce } from '../screening/probe/probe-cache.ts';
import type { ScenarioFingerprints } from '../screening/fingerprint-schema.ts';
import { workflowIdOf, type ActivityDependencies } from './activity-context.ts';
import { startPolicyForSource, type PolicySource } from './agent-environment.ts';
import { policyOf } from './pack-policy.ts';
import { mergedScenarioFingerprints } from './fingerprint-cache.ts';
import { probeCacheKeyOf } from './probe-cache-key.ts';
import { boundRejections } from './payload-bounds.ts';
import { loadPreEvalConfig } from '../screening/preeval-config.ts';
import { log } from '../common/log.ts';

const probeConversationMs = probeLimits.conversationSec * 1000;

/**
 * Conversations played at once. Each is independent (its own policy instance and sandbox, bland
 * upstream, records folder; nothing metered) and bounded (1 CPU / 1 GB sidecar or the pipe sandbox),
 * and a scenario run already starts several policies at once; two keeps a 2-core host responsive.
 */
const probeConcurrency = 2;

type ProbeInput = {
  policy: PolicySource;
  scenarios: readonly ScenarioDescriptor[];
  workflowId: string;
  attempt: number;
  signal: AbortSignal;
  /** Each scenario's tool results, when already read (probeWithCache reads them for its key). */
  environments?: readonly ProbeEnvironment[];
};

/** The scenarios' environments as the probe serves them (probe-environment.ts), one per scenario, in order. */
export async function probeEnvironments(
  deps: ActivityDependencies,
  scenarios: readonly ScenarioDescriptor[],
): Promise<ProbeEnvironment[]> {
  const environments: ProbeEnvironment[] = [];
  // One at a time: a build on a 2-core host is enough load.
  for (const scenario of scenarios)
    environments.push(
      await probeEnvironment(scenario, {
        docker: deps.docker,
        baseImageTag: deps.baseImageTag,
        owner: deps.owner,
        build: deps.sandboxHost !== undefined,
      }),
    );
  return environments;
}

/** The environment's source as the report and the cache key say it. */
export function environmentLabel(environment: ProbeEnvironment): string {
  return environment.source.kind === 'image'
    ? `image ${environment.source.imageId}`
    : `build context: ${environment.source.reason}`;
}

async function probeScenario(
  deps: ActivityDependencies,
  input: ProbeInput,
  descriptor: ScenarioDescriptor,
  fingerprints: ScenarioFingerprints,
  opening: HermesOpening,
  environment: ProbeEnvironment,
  signal: AbortSignal,
): Promise<ScenarioProbe> {
  const folder = await loadScenario(descriptor.dir);
  const scenario = {
    name: descriptor.name,
    instruction: folder.instruction,
    environmentFiles: environment.files,
  };
  const bland = createBlandUpstream();
  const deadlineMs = performance.now() + probeConversationMs;
  const conversationSignal = AbortSignal.any([signal, AbortSignal.timeout(probeConversationMs)]);
  const run = await startPolicyForSource(deps, {
    policy: input.policy,
    workflowId: input.workflowId,
    scenario: descriptor.name,
    seed: 0,
    dir: probeScenarioDir(input.workflowId, descriptor.name, input.attempt),
    bindHost: '127.0.0.1',
    deadlineMs,
    maxAgentRequests: probeLimits.turns + 2,
    signal: conversationSignal,
    upstream: bland.client,
    // Its answers are the probe's own, at $0: the validator's spend metrics count only real models.
    recordMetrics: false,
    // The run's own check, on every field of every request (tools, response_format, keys): any
    // scenario's hidden content the probe's conversation never gave the policy.
    hiddenContent: hiddenPiecesOfAll(fingerprints),
  });
  let conversation: Awaited<ReturnType<typeof playConversation>> = { turns: 0, sentText: '' };
  let summary: Awaited<ReturnType<typeof run.stop>>;
  try {
    const startFailure = run.host.startFailure;
    if (startFailure)
      conversation = { turns: 0, sentText: '', error: `the policy did not start: ${startFailure.message}` };
    else
      conversation = await playConversation(run.endpoint.url, scenario, opening, {
        maxTurns: probeLimits.turns,
        requestTimeoutMs: probeConversationMs,
        signal: conversationSignal,
      });
  } finally {
    summary = await run.stop();
  }
  return {
    scenario: descriptor.name,
    turns: conversation.turns,
    provenance: summary.provenance,
    injected: injectedPieces(summary.injection),
    environment: environmentLabel(environment),
    ...(conversation.error ? { error: conversation.error } : {}),
  };
}

/** What the run-time check found in the policy's calls, as the probe's verdict counts it. */
function injectedPieces(summary: InjectionSummary | undefined): ScenarioProbe['injected'] {
  return (summary?.evidence ?? []).map(({ scenario, kind, display, field }) => ({
    scenario,
    kind,
    display,
    field,
  }));
}

/**
 * The probe's conversations, one per scenario, each with a fresh policy instance and a fresh bland
 * upstream, at most `probeConcurrency` at once; the verdict with its report, scenarios in the order
 * given. The activity and bench/probe-corpus.ts both run this.
 */
export async function runProbe(deps: ActivityDependencies, input: ProbeInput): Promise<ProbeReport> {
  const fingerprints = await mergedScenarioFingerprints(input.scenarios.map((s) => path.dirname(s.dir)));
  const opening = hermesOpening();
  const environments = input.environments ?? (await probeEnvironments(deps, input.scenarios));
  const probes: (ScenarioProbe | undefined)[] = input.scenarios.map(() => undefined);
  // A lane that fails (Docker, the scenario folder) stops the other from starting more; both are
  // waited for, so no policy outlives the activity, and the first failure is rethrown.
  const stopLanes = new AbortController();
  const signal = AbortSignal.any([input.signal, stopLanes.signal]);
  let next = 0;
  const lane = async () => {
    while (next < input.scenarios.length && !signal.aborted) {
      const index = next++;
      try {
        probes[index] = await probeScenario(
          deps,
          input,
          input.scenarios[index]!,
          fingerprints,
          opening,
          environments[index]!,
          signal,
        );
      } catch (error) {
        stopLanes.abort();
        throw error;
      }
    }
  };
  const lanes = await Promise.allSettled(
    Array.from({ length: Math.min(probeConcurrency, input.scenarios.length) }, lane),
  );
  const failed = lanes.find((lane) => lane.status === 'rejected');
  if (failed) throw failed.reason;
  return probeVerdict(probes.filter((probe) => probe !== undefined));
}

/** The image this worker runs the policy in: part of what its behaviour depends on. */
function sandboxImageOf(deps: ActivityDependencies, policy: PolicySource): string {
  return policy.kind === 'typescript' ? deps.policyImage : (deps.sidecarImage ?? '');
}

/** The probe, or the verdict an earlier run reached for the same key (then `report.cached` says so). */
export async function probeWithCache(
  deps: ActivityDependencies,
  cache: FileProbeCache,
  input: ProbeInput & { packHash: string },
): Promise<ProbeReport> {
  const fingerprints = await mergedScenarioFingerprints(input.scenarios.map((s) => path.dirname(s.dir)));
  const environments = input.environments ?? (await probeEnvironments(deps, input.scenarios));
  const key = await probeCacheKeyOf({
    packHash: input.packHash,
    policy: input.policy,
    sandboxImage: sandboxImageOf(deps, input.policy),
    scenarios: input.scenarios,
    fingerprintsDigest: fingerprints.digest,
    environments: environments.map((environment) =>
      environment.source.kind === 'image' ? `image ${environment.source.imageId}` : 'build context',
    ),
  });
  return probeOnce(cache, key, { probedAt: new Date().toISOString(), probedBy: input.workflowId }, () =>
    runProbe(deps, { ...input, environments }),
  );
}

export function createProbeActivity(deps: ActivityDependencies, cache = new FileProbeCache()) {
  async function probePolicy(request: { pack: PackRef; scenarios: ScenarioDescriptor[] }): Promise<ProbeResult> {
    const context = Context.current();
    const workflowId = workflowIdOf(context.info);
    if (!loadPreEvalConfig().probe.enabled) {
      // The operator's pre-evaluation file turned the probe off (bench/coaching-corpus.ts --run-time eval measures
      // the run-time check alone so): a pass with no conversation, and the report says why.
      log.warn('probe_disabled', { workflowId, pack: request.pack.packHash });
      const reportRef = await writeArtifact(
        path.join(runDir(workflowId), artifactNames.probeReport),
        `${JSON.stringify({ verdict: 'pass', skipped: 'probe.enabled is false in the pre-evaluation file', scenarios: [] }, null, 2)}\n`,
      );
      return { verdict: 'pass', report: reportRef, conversations: 0 };
    }
    const { policy } = await policyOf(request.pack);
    // The worker's steady heartbeat (workers/steady-heartbeat.ts) covers the conversations.
    const report = await probeWithCache(deps, cache, {
      packHash: request.pack.packHash,
      policy,
      scenarios: request.scenarios,
      workflowId,
      attempt: context.info.attempt,
      signal: context.cancellationSignal,
    });
    const reportRef = await writeArtifact(
      path.join(runDir(workflowId), artifactNames.probeReport),
      JSON.stringify(report, null, 2) + '\n',
    );
    const common = {
      report: reportRef,
      conversations: report.scenarios.length,
      ...(report.cached ? { cached: true } : {}),
    };
    return report.verdict === 'pass'
      ? { verdict: 'pass', ...common }
      : { verdict: 'reject', reasons: boundRejections(report.reasons), ...common };
  }
  return { probePolicy };
}
