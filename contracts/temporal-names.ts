// Names shared by workers, workflows and clients: task queues, search attributes, workflow ids.
// Workflow code imports this file, so it must stay free of Node built-ins.
import { defineSearchAttributeKey, type SearchAttributePair } from '@temporalio/common';
import type { Submission } from './submission.ts';

export const defaultNamespace = 'default';
export const defaultTemporalAddress = '127.0.0.1:7233';
export const temporalUiPort = 8233;

/** Task queue of the all-in-one worker. Tests use their own queue so a running worker never takes their work. */
export const evaluationTaskQueue = 'trl-evaluations';

/**
 * Roles (docs/explanation/roles-and-queues.md): the orchestration worker polls the evaluation queue
 * (workflows, pre-evaluation, probe, aggregation, seat, chain); every sandbox worker polls the
 * shared sandbox queue, where a scenario's first activity (`claimSandboxHost`) is taken, and its
 * own host queue, where that scenario's prepare → run → verify go. Both derive from the
 * evaluation queue, so a test's own queue brings its own sandbox and host queues.
 */
export function sandboxTaskQueue(evaluationQueue: string): string {
  return `${evaluationQueue}-sandbox`;
}

/** A sandbox host's own queue. The host id is checked where it is configured (workers/worker-config.ts). */
export function sandboxHostTaskQueue(evaluationQueue: string, hostId: string): string {
  return `${evaluationQueue}-host-${hostId}`;
}

/** What a host id may be: it becomes part of a task queue name. */
export const sandboxHostIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Attempts of each per-scenario sandbox activity (prepare, run, verify): the workflow's retry policy, and what an
 * attempt reads to know whether another follows (a verification keeps its agent snapshot for it). */
export const sandboxActivityAttempts = 3;

export const sandboxHostLimits = {
  /** A task on a host queue not started by then means the host is gone: the scenario starts over from its claim. */
  scheduleToStartSec: 60,
  /** Hosts a scenario may lose before it is `infra_error` (blame row `sandbox_host_lost`). */
  maxHostChanges: 2,
} as const;

export const searchAttributes = {
  submissionId: defineSearchAttributeKey('TrlSubmissionId', 'KEYWORD'),
  packHash: defineSearchAttributeKey('TrlPackHash', 'KEYWORD'),
  status: defineSearchAttributeKey('TrlStatus', 'KEYWORD'),
  testsPassed: defineSearchAttributeKey('TrlTestsPassed', 'INT'),
  /** The miner's hotkey, when the pack came from a chain commitment. */
  hotkey: defineSearchAttributeKey('TrlHotkey', 'KEYWORD'),
  /** A rerun's original evaluation (workflow id): `TrlRerunOf = "evaluate-…"` lists its reruns. */
  rerunOf: defineSearchAttributeKey('TrlRerunOf', 'KEYWORD'),
  /** Why the evaluation ran: `challenger` or `incumbent` (the seat's), `local` (trl eval and tests). */
  role: defineSearchAttributeKey('TrlRole', 'KEYWORD'),
  /** The registry's scenario spec number, when the active set ran. */
  spec: defineSearchAttributeKey('TrlSpec', 'INT'),
  /** The evaluation's model spend in USD. */
  costUsd: defineSearchAttributeKey('TrlCostUsd', 'DOUBLE'),
  /** The spec manifest hash (contracts/spec-manifest.ts): `TrlSpecHash = "…"` lists one contest's runs. */
  specHash: defineSearchAttributeKey('TrlSpecHash', 'KEYWORD'),
} as const;

/** What each search attribute holds, as docs/reference/search-attributes.md shows it. */
export const searchAttributeMeanings: Readonly<Record<keyof typeof searchAttributes, string>> = {
  submissionId: 'The submission id; the workflow id is `evaluate-<id>`.',
  packHash: "The pack's sha256, once it is fetched.",
  status: "The evaluation's status: `queued`, `running`, then `completed`, `incomplete` or `rejected`.",
  testsPassed: 'Tests passed over all scenarios, once aggregated.',
  hotkey: "The miner's hotkey, when the pack came from a chain commitment.",
  rerunOf: 'A rerun\'s original evaluation (workflow id): `TrlRerunOf = "evaluate-…"` lists its reruns.',
  role: "Why the evaluation ran: `challenger` or `incumbent` (the seat's), `local` (trl eval and tests).",
  spec: "The registry's scenario spec number, when the active set ran.",
  costUsd: "The evaluation's model spend in USD.",
  specHash: 'The spec manifest hash (contracts/spec-manifest.ts): `TrlSpecHash = "…"` lists one contest\'s runs.',
};

export type EvaluationRole = 'challenger' | 'incumbent' | 'local';

/** The search attributes an evaluation starts with, whoever starts it (a client, or the seat as its child). */
export function evaluationSearchAttributes(submission: Submission, role: EvaluationRole): SearchAttributePair[] {
  return [
    { key: searchAttributes.submissionId, value: submission.submissionId },
    { key: searchAttributes.status, value: 'queued' },
    { key: searchAttributes.role, value: role },
    ...(submission.hotkey ? [{ key: searchAttributes.hotkey, value: submission.hotkey }] : []),
    ...(submission.rerunOf ? [{ key: searchAttributes.rerunOf, value: submission.rerunOf }] : []),
  ];
}

export function evaluationWorkflowId(submissionId: string): string {
  return `evaluate-${submissionId}`;
}

/** Signals between the seat and its paired evaluations (contracts/pairing.ts). */
export const pairingSignalNames = {
  /** seat → evaluation: these scenarios may start their runs now. */
  gate: 'pairedScenarioGate',
  /** evaluation → seat: past pre-evaluation, these are my scenarios; I wait at the gate. */
  ready: 'pairedEvaluationReady',
  /** evaluation → seat: this scenario is finished (result known, whatever it is). */
  done: 'pairedScenarioDone',
} as const;

/** One seat workflow per subnet: it holds the incumbent and takes challenges one at a time. */
export function seatWorkflowId(netuid: number): string {
  return `seat-${netuid}`;
}

/**
 * The spend ledger shared by every worker of one evaluation queue (workflows/spend-ledger.ts): one
 * long-lived workflow, so the money ceilings hold across sandbox hosts.
 */
export function spendLedgerWorkflowId(evaluationQueue: string): string {
  return `spend-ledger-${evaluationQueue}`;
}

/** The Schedule that runs the chain cycle (commitments → challenges → weights) for a subnet. */
export const seatCycleSchedulePrefix = 'seat-cycle-';

export function seatCycleScheduleId(netuid: number): string {
  return `${seatCycleSchedulePrefix}${netuid}`;
}
