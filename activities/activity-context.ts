// What activities need from the worker, constructed only in workers/ and passed in.
import type { CoreGate } from '../common/core-gate.ts';
import type Docker from 'dockerode';
import type { ChatUpstream } from '../gateway/upstream/chat-upstream.ts';
import type { Allowlist } from '../gateway/catalog/allowlist.ts';
import type { WorkerIdentity } from '../sandbox/worker-identity.ts';
import type { SpendAccount } from '../gateway/spend/spend-account.ts';
import type { SeatActivityDependencies } from './seat-activities.ts';
import type { WatchdogLimits } from '../policy/host/watchdog.ts';
import type { HostClaims } from './host-claims.ts';
import type { VerifierCache } from '../verifiers/verifier-cache.ts';

export interface ActivityDependencies {
  docker: Docker;
  owner: WorkerIdentity;
  /** Tag of the sandbox base image scenario images are built FROM. */
  baseImageTag: string;
  /** Upper bound on the bytes of agent outputs copied out of one run. */
  maxAgentOutputBytes: number;
  /** The model allowlist (gateway/catalog/models.json or TRL_MODELS_FILE). */
  allowlist: Allowlist;
  /** The OpenAI-compatible upstream: the sim fleet by default, Engy in production. */
  upstream: ChatUpstream;
  /** Why the pre-evaluation's LLM judge is not asked on this upstream (the local model); absent: it is. */
  judgeSkipped?: string;
  /** Builds the tape upstream of `trl eval --tape` from a recorded model-call log (workers/tape-upstream.ts). */
  tapeUpstream?: (callLogText: string) => {
    client: ChatUpstream;
    divergence(): Error | undefined;
    /** Aborted when the replay reaches the call the recording stopped on (reason: an Error saying so). */
    ended: AbortSignal;
  };
  /** Image policies run in. */
  policyImage: string;
  /** Image Python (policy.py) and data (policy.json) packs run in, one sidecar per attempt. */
  sidecarImage?: string;
  /** How long a sidecar has to answer GET /v1/models (default 60 s). */
  sidecarHealthTimeoutMs?: number;
  /** Watchdog limits (default: TRL_WATCHDOG_FIRST_CALL_SEC / TRL_WATCHDOG_IDLE_SEC, else 120 s / 600 s). */
  watchdog?: WatchdogLimits;
  /** Hard model budget of one scenario attempt, in USD. */
  budgetCapUsd: number;
  /** How long one agent request may wait for the policy. */
  policyRequestTimeoutMs: number;
  /** The money ledger across attempts, with the submission and daily ceilings: this host's files, or the shared ledger
   * workflow. */
  spendLedger: SpendAccount;
  /** The chain and a Temporal client for the seat's cycle; absent on sandbox-only workers. */
  seat?: SeatActivityDependencies;
  /** A test run's verifier results (TRL_VERIFIER_CACHE_DIR, set by `trl test`); absent outside the suite. */
  verifierCache?: VerifierCache;
  /** This process's sandbox host (its id, queue and claims); absent on orchestration-only workers. */
  sandboxHost?: SandboxHost;
}

/** A sandbox host: its id, its own task queue (contracts/temporal-names.ts sandboxHostTaskQueue), the scenarios it has
 * claimed. */
export interface SandboxHost {
  id: string;
  taskQueue: string;
  claims: HostClaims;
  /** The host's cores, lent to one verification at a time each as many as its verifier declares. */
  verifierCores: CoreGate;
}

/** The workflow an activity runs for; these activities are only ever scheduled by workflows, so a standalone call is a
 * programming error. */
export function workflowIdOf(info: { workflowExecution?: { workflowId: string } }): string {
  if (!info.workflowExecution) throw new Error('this activity must run inside a workflow');
  return info.workflowExecution.workflowId;
}
