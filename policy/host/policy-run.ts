// Everything one scenario run needs on the policy side, started together and stopped together:
// gateway (budget, call log, watchdog) → policy backend (the TypeScript sandbox, or another such as
// the Python sidecar) → agent endpoint. Stopping writes the records.
import path from 'node:path';
import { mkdir, writeFile } from 'node:fs/promises';
import type Docker from 'dockerode';
import type { ChatUpstream } from '../../gateway/upstream/chat-upstream.ts';
import type { Allowlist } from '../../gateway/catalog/allowlist.ts';
import type { ArtifactRef } from '../../contracts/artifact.ts';
import type { WorkerIdentity } from '../../sandbox/worker-identity.ts';
import { ModelGateway } from '../../gateway/model-gateway.ts';
import { describeArtifact, writeArtifact } from '../../common/write-artifact.ts';
import { artifactNames } from '../../common/data-layout.ts';
import { PolicyHost } from './policy-host.ts';
import type { PolicyBackend, PolicyFault } from './policy-backend.ts';
import { defaultWatchdogLimits, Watchdog, WatchedCallLog, type WatchdogLimits } from './watchdog.ts';
import { serveAgentEndpoint, type AgentEndpoint } from './agent-endpoint.ts';
import { TurnLog } from './turn-log.ts';
import type { CallLogEntry } from '../../gateway/call-log.ts';
import { ProvenanceTracker } from '../../gateway/provenance/provenance-tracker.ts';
import type { ProvenanceSummary } from '../../contracts/provenance.ts';
import type { InjectionSummary } from '../../contracts/injection.ts';
import { InjectionGuard, type HiddenPiece } from '../../gateway/injection/injection-guard.ts';

export interface PolicyRunOptions {
  docker: Docker;
  owner: WorkerIdentity;
  workflowId: string;
  scenario: string;
  policyImage: string;
  /** The TypeScript policy's bundle (run in the no-network sandbox) — unless `backend` is given. */
  bundleCode?: string;
  /** Starts another backend (e.g. the Python sidecar) over this run's gateway and turn log. */
  backend?: (context: BackendContext) => Promise<PolicyBackend>;
  watchdog?: WatchdogLimits;
  allowlist: Allowlist;
  upstream: ChatUpstream;
  capUsd: number;
  seed: number;
  /** Which try of the scenario this is (ModelGateway's tryKey). */
  tryKey?: string;
  /** Folder of this attempt's records. */
  dir: string;
  /** Address the agent endpoint binds: loopback, or the bridge address of the run's network. */
  bindHost: string;
  requestTimeoutMs: number;
  /** The agent's deadline (performance.now() clock): no policy request waits past it. */
  deadlineMs?: number;
  /** Most model requests the agent may make (its turn limit), enforced here, outside the agent. */
  maxAgentRequests?: number;
  /**
   * The scenario's hidden content (activities/hidden-content.ts): when given, every call the policy
   * sends is checked for it (gateway/injection/), and carrying it in stops the agent.
   */
  hiddenContent?: readonly HiddenPiece[];
  /** Count hidden content found, never refuse a call or stop the agent (calibration, bench/coaching-corpus.ts). */
  observeInjectionOnly?: boolean;
  /** `false` for a rehearsal on an upstream that is no model (the probe): no model-call or spend metrics. */
  recordMetrics?: boolean;
}

/** What a backend gets from its run: the metered gateway and the records it writes into. */
export interface BackendContext {
  gateway: ModelGateway;
  turnLog: TurnLog;
  dir: string;
  requestTimeoutMs: number;
  deadlineMs?: number;
  maxAgentRequests?: number;
}

export interface PolicyRunSummary {
  costUsd: number;
  /** What each model cost (only allowlisted models can cost, so at most the catalog's size of keys). */
  costByModelUsd: Record<string, number>;
  calls: number;
  budgetRefusals: number;
  /** Calls that failed upstream for the infrastructure's reasons after the gateway's retries, on a call the policy
   * was waiting for, and calls the upstream billed beyond their bound (contracts/blame.ts). */
  upstreamFailures: number;
  /** Calls the policy left in flight (cut when its client went or when the episode ended): the policy's. */
  abandonedCalls: number;
  agentRequests: number;
  /** How much of what the agent received came from model answers. */
  provenance: ProvenanceSummary;
  /** The scenario's hidden content found in what the policy sent the models (absent when not checked). */
  injection?: InjectionSummary;
  faults: PolicyFault[];
  /** The policy's sandbox was killed from outside (policy-backend.ts): the attempt is the infrastructure's. */
  sandboxLost?: string;
  callLog: ArtifactRef;
  policyLog: ArtifactRef;
  turnLog: ArtifactRef;
}

function costByModel(entries: readonly { model: string; costUsd: number }[]): Record<string, number> {
  const byModel: Record<string, number> = {};
  for (const entry of entries)
    if (entry.costUsd > 0) byModel[entry.model] = (byModel[entry.model] ?? 0) + entry.costUsd;
  for (const model of Object.keys(byModel)) byModel[model] = Math.round(byModel[model]! * 1e9) / 1e9;
  return byModel;
}

export interface PolicyRun {
  endpoint: AgentEndpoint;
  host: PolicyBackend;
  gateway: ModelGateway;
  /** Stops the agent when no model call completes in time; start it when the agent starts. */
  watchdog: Watchdog;
  /** The gateway's call log so far (summaries without bodies), e.g. for `trl serve`'s per-request cost. */
  calls(): readonly CallLogEntry[];
  stop(): Promise<PolicyRunSummary>;
}

/** The policy's records inside a scenario attempt's folder (names owned by common/data-layout.ts). */
export const policyRecordNames = {
  callLog: artifactNames.callLog,
  policyLog: artifactNames.policyLog,
  turnLog: artifactNames.turnLog,
  bundleDir: artifactNames.policyBundleDir,
} as const;

async function startTypeScriptBackend(options: PolicyRunOptions, context: BackendContext): Promise<PolicyBackend> {
  if (options.bundleCode === undefined) throw new Error('a TypeScript policy run needs the pack bundle');
  const bundleDir = path.join(options.dir, policyRecordNames.bundleDir);
  await mkdir(bundleDir, { recursive: true });
  const bundleFile = path.join(bundleDir, 'policy.mjs');
  await writeFile(bundleFile, options.bundleCode, { mode: 0o644 });
  return PolicyHost.start(
    options.docker,
    {
      image: options.policyImage,
      bundleFile,
      owner: options.owner,
      workflowId: options.workflowId,
      scenario: options.scenario,
    },
    context.gateway,
    {
      requestTimeoutMs: context.requestTimeoutMs,
      deadlineMs: context.deadlineMs,
      maxAgentRequests: context.maxAgentRequests,
      turnLog: context.turnLog,
    },
  );
}

export async function startPolicyRun(options: PolicyRunOptions): Promise<PolicyRun> {
  const watchdog = new Watchdog(options.watchdog ?? defaultWatchdogLimits);
  const callLogFile = path.join(options.dir, policyRecordNames.callLog);
  // What the agent receives must come from model answers (contracts/provenance.ts).
  const provenance = new ProvenanceTracker();
  // What the policy sends the models must not carry the scenario's hidden content (contracts/injection.ts).
  const injection = options.hiddenContent
    ? new InjectionGuard(options.hiddenContent, {
        onViolation: () => watchdog.halt("the policy carried the scenario's hidden content into a model request"),
        observeOnly: options.observeInjectionOnly,
      })
    : undefined;
  const callLog = new WatchedCallLog(callLogFile, watchdog, (response) => {
    provenance.addModelResponse(response);
    // The gateway books a call (and drops it from those in flight) before its end row is written.
    if (gateway.callsInFlight === 0) provenance.settle();
    injection?.noteModelAnswer(response);
  });
  const turnLogFile = path.join(options.dir, policyRecordNames.turnLog);
  const turnLog = new TurnLog(
    turnLogFile,
    // A stream the policy relays may still be open (its answer is fingerprinted when it is booked).
    (response) => provenance.checkReceived(response, gateway.callsInFlight > 0),
    injection && ((body) => injection.noteAgentRequest(body)),
  );
  const gateway = new ModelGateway({
    requestGuard: injection,
    allowlist: options.allowlist,
    upstream: options.upstream,
    capUsd: options.capUsd,
    callLog,
    seed: options.seed,
    tryKey: options.tryKey,
    recordMetrics: options.recordMetrics,
  });
  const context: BackendContext = {
    gateway,
    turnLog,
    dir: options.dir,
    requestTimeoutMs: options.requestTimeoutMs,
    deadlineMs: options.deadlineMs,
    maxAgentRequests: options.maxAgentRequests,
  };
  // Both are closed whatever happens; a write either lost (a full disk) fails the attempt.
  const closeRecords = async () => {
    const closed = await Promise.allSettled([callLog.close(), turnLog.close()]);
    const failed = closed.find((c) => c.status === 'rejected');
    if (failed) throw failed.reason;
  };
  let host: PolicyBackend;
  try {
    host = options.backend ? await options.backend(context) : await startTypeScriptBackend(options, context);
  } catch (error) {
    await closeRecords();
    throw error;
  }
  let endpoint: AgentEndpoint;
  try {
    endpoint = await serveAgentEndpoint(host, {
      host: options.bindHost,
      onAgentWaiting: (opened) => (opened ? watchdog.noteAgentRequestOpened() : watchdog.noteAgentRequestClosed()),
    });
  } catch (error) {
    await host.stop();
    await closeRecords();
    throw error;
  }
  // An upstream failure while no agent request is open (between turns, after the last) is on a
  // call nobody waited for: not the infrastructure's (contracts/blame.ts).
  gateway.agentWaiting = () => endpoint.openRequests > 0;
  return {
    endpoint,
    host,
    gateway,
    watchdog,
    calls: () => callLog.entries,
    async stop() {
      watchdog.stop();
      await endpoint.close();
      // The episode is over: a call still in flight is one the policy left (un-awaited, fired and
      // forgotten). It is cut and booked `abandoned` before the policy's sandbox goes (so its end
      // row, its charge and the spend ledger agree), and never counted as the upstream's failure.
      await gateway.abandonInFlight('the episode ended with the call in flight');
      await host.stop();
      // A call the policy started while it was being stopped.
      await gateway.abandonInFlight('the episode ended with the call in flight');
      await closeRecords();
      return {
        costUsd: gateway.ledger.spentUsd,
        costByModelUsd: costByModel(callLog.entries),
        calls: callLog.entries.length,
        budgetRefusals: gateway.budgetRefusals,
        upstreamFailures: gateway.upstreamFailures,
        abandonedCalls: gateway.abandonedCalls,
        agentRequests: endpoint.requests,
        provenance: provenance.summary(),
        ...(injection ? { injection: injection.summary() } : {}),
        faults: [...host.faults, ...(watchdog.fault ? [watchdog.fault] : [])],
        ...(host.sandboxLost ? { sandboxLost: host.sandboxLost } : {}),
        callLog: await describeArtifact(callLogFile),
        policyLog: await writeArtifact(path.join(options.dir, policyRecordNames.policyLog), host.logText()),
        turnLog: await describeArtifact(turnLogFile),
      };
    },
  };
}
