// Who is to blame for every way a scenario or an evaluation can fail, written down once. The
// policy's failures and the agent's are scored (the pack drives both); the infrastructure's are
// `infra_error` — retried with back-off, then the evaluation is `incomplete` — and never move the
// seat. docs/reference/blame.md is this table (`trl docs`); contracts/blame.test.ts checks that
// every failure type in failure-types.ts and every scenario status has a row, and that the named
// tests exist.
// Workflow code imports this file: no Node built-ins.
import {
  chainErrorKinds,
  chainFailureType,
  failureTypes,
  packFailureTypes,
  packFaultTypes,
  upstreamUnavailableType,
  verifierFailureTypes,
} from './failure-types.ts';
import type { AgentRunResult, ScenarioStatus } from './results.ts';
import { isProvenanceViolation, provenanceViolationReason } from './provenance.ts';
import { describeInjection, injectedScenarioContent, isInjectionViolation } from './injection.ts';

/** `task`: the scenario itself (it does not load or its image does not build): never the policy's, never scored. */
export type Blame = 'policy' | 'agent' | 'infrastructure' | 'task';

/**
 * - `scored`: the scenario counts with the tests it passed (0 when nothing was verified);
 * - `rejected`: the pack is refused before any scenario (pre-evaluation or intake);
 * - `retried_then_incomplete`: retried with back-off; if it persists, `infra_error` and the evaluation is `incomplete`;
 * - `incomplete`: not retried (retrying cannot help), the evaluation is `incomplete`;
 * - `outside_evaluation`: chain and seat operations, retried by their own workflows; they never score a pack.
 */
export type Consequence = 'scored' | 'rejected' | 'retried_then_incomplete' | 'incomplete' | 'outside_evaluation';

export type BlameSource = 'scenario_status' | 'failure_type' | 'gateway_error' | 'policy_fault' | 'platform';

/** What each consequence means, as docs/reference/blame.md shows it. */
export const consequenceMeanings: Readonly<Record<Consequence, string>> = {
  scored: 'the scenario counts with the tests it passed (0 when nothing was verified)',
  rejected: 'the pack is refused before any scenario (pre-evaluation or intake)',
  retried_then_incomplete: 'retried with back-off; if it persists, `infra_error` and the evaluation is `incomplete`',
  incomplete: 'not retried (retrying cannot help); the evaluation is `incomplete`',
  outside_evaluation: 'chain and seat operations, retried by their own workflows; they never score a pack',
};

/** Where each kind of cause comes from, as docs/reference/blame.md shows it. */
export const blameSourceMeanings: Readonly<Record<BlameSource, string>> = {
  scenario_status: "A scenario's final status (contracts/results.ts).",
  failure_type: 'A failure type an activity raises (contracts/failure-types.ts).',
  gateway_error: 'An error the gateway gives the policy (gateway/gateway-error.ts).',
  policy_fault: "A fault of the policy's own code (policy/host/policy-backend.ts).",
  platform: 'A fault of the platform that reaches the workflow as an activity failure without a type of ours.',
};

export interface BlameRow {
  /** The scenario status, failure type, gateway error type, policy fault kind or platform fault. */
  cause: string;
  source: BlameSource;
  blame: Blame;
  consequence: Consequence;
  /** The test that proves it: `file — title` (the file is checked to exist). */
  proof: string;
}

const proofs = {
  deadline:
    'test/integration/failure-modes.test.ts — an agent past its deadline is stopped, and its partial outputs are still verified',
  verifierCrash:
    'test/integration/failure-modes.test.ts — a crashing verifier is an infrastructure error after retries, not a zero',
  verifierHang:
    'test/integration/failure-modes.test.ts — a hanging verifier is stopped at its timeout and is an infrastructure error',
  incomplete: 'test/integration/failure-modes.test.ts — an evaluation with infrastructure errors is incomplete',
  rejection: 'test/integration/pack-rejection.test.ts — a malformed pack is rejected naming the file and the rule',
  notFound: 'test/integration/pack-rejection.test.ts — a missing pack directory is rejected as pack_not_found',
  tooLarge: 'test/integration/pack-rejection.test.ts — an oversized file is rejected as pack_too_large',
  hashMismatch:
    'test/integration/pack-rejection.test.ts — a URL pack whose bytes do not match the committed sha256 is rejected',
  tapeDiverged:
    'test/integration/tape-eval.test.ts — a changed policy stops at its first unrecorded call, naming the call and the field',
  urlRefused:
    'packs/safe-fetch.test.ts — a redirect to a loopback port outside the allowed set is refused; within it, followed',
  memoryBomb: 'test/integration/policy-containment.test.ts — a memory bomb kills only the policy: recorded as a crash',
  hang: 'test/integration/policy-containment.test.ts — a policy that never answers times out per request',
  malformed: 'test/integration/policy-containment.test.ts — a malformed answer is a policy error',
  cap: 'test/integration/policy-containment.test.ts — 100 parallel greedy calls through the real sandbox never pass the cap',
  ceiling: 'test/integration/spend-ceiling.test.ts — a submission ceiling of one scenario cap',
  sandboxKilled:
    'test/faults/sandbox-kill.test.ts — docker kill of the policy sidecar mid-run: identical or incomplete, never scored on the kill',
  workerKilled:
    'test/integration/worker-crash.test.ts — a new worker completes the same workflow with the same result and leaves no containers',
  upstreamClass:
    "gateway/gateway-error.test.ts — blame: rate limits past retries, 5xx, timeouts and account refusals are the infrastructure's",
  upstreamCounted:
    "gateway/model-gateway.test.ts — calls that fail upstream for the infrastructure's reasons are counted",
  upstreamOverbilled:
    "gateway/hard-cap.test.ts — an upstream billing past the bound is charged the reservation, counted as the upstream's, and closes the episode",
  abandoned:
    'test/integration/abandoned-calls.test.ts — calls a policy leaves in flight are abandoned, charged and booked, and the scenario is scored as it stands',
  upstreamStorm:
    "test/integration/seat-forfeit.test.ts — an upstream storm on the incumbent's model: infra_error, incomplete, the seat unmoved",
  scenarioRule: 'contracts/blame.test.ts — the scenario status follows the table',
  taskInvalid:
    'scoring/evaluation-summary.test.ts — a task that does not load or build is task_invalid: not scored, the evaluation incomplete',
  packFault:
    'test/integration/scenario-blame.test.ts — a pack that breaks its own run is scored 0 for it, and the evaluation completes',
  upstreamRetried:
    'test/integration/scenario-blame.test.ts — calls failing upstream make the scenario infra_error after three tries, and the evaluation incomplete',
  provenance:
    'test/integration/provenance.test.ts — a policy that answers the agent with its own text is a provenance violation, scored 0, with the evidence',
  injection:
    "test/integration/injected-content.test.ts — a policy that carries the scenario's solution into a model request is injected_scenario_content, scored 0, with the evidence",
  agentCrash:
    'agents/crash-restart.test.ts — an agent that crashes before its first request is restarted; if it keeps crashing, the run says so',
  chain: 'test/integration/chopsticks-chain.test.ts — a dispatch error comes back decoded by name',
  hostFull: 'activities/host-claims.test.ts — a full host takes no further scenario until one is verified',
  hostLost:
    'test/integration/sandbox-hosts.test.ts — a sandbox host shut down mid-scenario: the scenario starts over on the other host, same score',
} as const;

const row = (source: BlameSource, cause: string, blame: Blame, consequence: Consequence, proof: string): BlameRow => ({
  source,
  cause,
  blame,
  consequence,
  proof,
});

export const blameTable: readonly BlameRow[] = [
  // Scenario statuses.
  row('scenario_status', 'completed', 'agent', 'scored', proofs.scenarioRule),
  row('scenario_status', 'agent_timeout', 'agent', 'scored', proofs.deadline),
  row('scenario_status', 'policy_error', 'policy', 'scored', proofs.malformed),
  row('scenario_status', 'budget_exhausted', 'policy', 'scored', proofs.cap),
  row('scenario_status', 'provenance_violation', 'policy', 'scored', proofs.provenance),
  row('scenario_status', injectedScenarioContent, 'policy', 'scored', proofs.injection),
  row('scenario_status', 'infra_error', 'infrastructure', 'retried_then_incomplete', proofs.incomplete),
  row('scenario_status', 'ceiling_reached', 'infrastructure', 'incomplete', proofs.ceiling),
  // Never scored, never the policy's: the evaluation is incomplete, so it cannot move the seat.
  row('scenario_status', 'task_invalid', 'task', 'incomplete', proofs.taskInvalid),
  // Failure types raised by activities (contracts/failure-types.ts).
  row('failure_type', packFailureTypes.notFound, 'policy', 'rejected', proofs.notFound),
  row('failure_type', packFailureTypes.tooLarge, 'policy', 'rejected', proofs.tooLarge),
  row('failure_type', packFailureTypes.hashMismatch, 'policy', 'rejected', proofs.hashMismatch),
  row('failure_type', packFailureTypes.urlRefused, 'policy', 'rejected', proofs.urlRefused),
  // Tapes are an engineer's replay at $0, never a scored evaluation: the policy asked what the recording lacks.
  row('failure_type', failureTypes.tapeDiverged, 'policy', 'outside_evaluation', proofs.tapeDiverged),
  row('failure_type', packFailureTypes.invalid, 'policy', 'rejected', proofs.rejection),
  row('failure_type', packFailureTypes.fetchFailed, 'infrastructure', 'retried_then_incomplete', proofs.incomplete),
  row('failure_type', packFaultTypes.outputsTooLarge, 'policy', 'scored', proofs.packFault),
  row('failure_type', packFaultTypes.payloadTooLarge, 'policy', 'scored', proofs.packFault),
  row('failure_type', packFaultTypes.sandboxFault, 'policy', 'scored', proofs.packFault),
  row('failure_type', packFaultTypes.diskBudgetExceeded, 'policy', 'scored', proofs.packFault),
  row('failure_type', verifierFailureTypes.timeout, 'infrastructure', 'retried_then_incomplete', proofs.verifierHang),
  row('failure_type', verifierFailureTypes.crashed, 'infrastructure', 'retried_then_incomplete', proofs.verifierCrash),
  row(
    'failure_type',
    verifierFailureTypes.reportInvalid,
    'infrastructure',
    'retried_then_incomplete',
    proofs.verifierCrash,
  ),
  row('failure_type', failureTypes.scenarioInvalid, 'task', 'incomplete', proofs.taskInvalid),
  row('failure_type', failureTypes.imageBuildFailed, 'infrastructure', 'retried_then_incomplete', proofs.incomplete),
  row('failure_type', failureTypes.artifactCorrupt, 'infrastructure', 'incomplete', proofs.incomplete),
  row('failure_type', failureTypes.spendCeilingReached, 'infrastructure', 'incomplete', proofs.ceiling),
  row('failure_type', failureTypes.agentCrashed, 'infrastructure', 'retried_then_incomplete', proofs.agentCrash),
  row('failure_type', failureTypes.seatNotConfigured, 'infrastructure', 'outside_evaluation', proofs.chain),
  // Never ends a scenario: the claim waits on the shared queue until some host has room.
  row('failure_type', failureTypes.sandboxHostFull, 'infrastructure', 'outside_evaluation', proofs.hostFull),
  // A scenario starts over from its claim on another host, at most sandboxHostLimits.maxHostChanges times.
  row('failure_type', failureTypes.sandboxHostLost, 'infrastructure', 'retried_then_incomplete', proofs.hostLost),
  row('failure_type', upstreamUnavailableType, 'infrastructure', 'retried_then_incomplete', proofs.upstreamRetried),
  ...chainErrorKinds.map((kind) =>
    row('failure_type', chainFailureType(kind), 'infrastructure', 'outside_evaluation', proofs.chain),
  ),
  // Errors the gateway gives the policy (gateway/gateway-error.ts). The policy may handle them;
  // the upstream ones make the scenario the infrastructure's when they affected its outcome.
  row('gateway_error', 'cap', 'policy', 'scored', proofs.cap),
  row('gateway_error', 'model_not_allowed', 'policy', 'scored', proofs.scenarioRule),
  row('gateway_error', 'invalid_request', 'policy', 'scored', proofs.upstreamClass),
  row('gateway_error', 'context_length_exceeded', 'policy', 'scored', proofs.upstreamClass),
  row('gateway_error', 'unauthorized', 'policy', 'scored', proofs.scenarioRule),
  row('gateway_error', injectedScenarioContent, 'policy', 'scored', proofs.injection),
  // A call the policy left in flight (its client went, its stream was not read, the episode ended
  // with it running): charged its usage or its reservation, never an upstream failure.
  row('gateway_error', 'abandoned', 'policy', 'scored', proofs.abandoned),
  // The upstream billed beyond the bound: its fault; the other calls in flight are cancelled.
  row('gateway_error', 'upstream_overbilled', 'infrastructure', 'retried_then_incomplete', proofs.upstreamOverbilled),
  row('gateway_error', 'cancelled', 'infrastructure', 'retried_then_incomplete', proofs.upstreamOverbilled),
  row('gateway_error', 'rate_limited', 'infrastructure', 'retried_then_incomplete', proofs.upstreamStorm),
  row('gateway_error', 'upstream_error', 'infrastructure', 'retried_then_incomplete', proofs.upstreamCounted),
  row('gateway_error', 'upstream_timeout', 'infrastructure', 'retried_then_incomplete', proofs.upstreamRetried),
  row('gateway_error', 'upstream_unavailable', 'infrastructure', 'retried_then_incomplete', proofs.upstreamCounted),
  // Policy faults (policy/host/policy-backend.ts): the policy's own code.
  row('policy_fault', 'start_failed', 'policy', 'scored', proofs.scenarioRule),
  row('policy_fault', 'crash', 'policy', 'scored', proofs.memoryBomb),
  row('policy_fault', 'timeout', 'policy', 'scored', proofs.hang),
  row('policy_fault', 'malformed_response', 'policy', 'scored', proofs.malformed),
  row('policy_fault', 'policy_exception', 'policy', 'scored', proofs.scenarioRule),
  row('policy_fault', 'protocol_violation', 'policy', 'scored', proofs.malformed),
  row('policy_fault', 'watchdog', 'policy', 'scored', proofs.scenarioRule),
  // Faults of the platform that reach the workflow as activity failures without a type of ours.
  row('platform', 'activity_timeout', 'infrastructure', 'retried_then_incomplete', proofs.verifierHang),
  row('platform', 'worker_lost', 'infrastructure', 'retried_then_incomplete', proofs.workerKilled),
  row('platform', 'docker_error', 'infrastructure', 'retried_then_incomplete', proofs.incomplete),
  // A sandbox container killed through the Docker API while the worker was not stopping it (the
  // sandbox's own code cannot SIGKILL its init; an OOM kill is no kill event and stays the pack's).
  row('platform', 'sandbox_killed', 'infrastructure', 'retried_then_incomplete', proofs.sandboxKilled),
];

export function blameOf(source: BlameSource, cause: string): BlameRow | undefined {
  return blameTable.find((entry) => entry.source === source && entry.cause === cause);
}

/** What the scenario rule needs of an agent run: the outcome and the policy's counts. */
export type RunForBlame = Pick<AgentRunResult, 'outcome'> & {
  policy?: Pick<
    NonNullable<AgentRunResult['policy']>,
    'budgetRefusals' | 'upstreamFailures' | 'provenance' | 'injection'
  > & {
    faults: readonly unknown[];
  };
};

/**
 * The scenario's status from its run and what the verifier found. Scenario content the policy
 * carried into a model request (contracts/injection.ts) comes first: it is the policy's own act,
 * whatever else happened, and scores 0. Then calls that failed upstream for
 * the infrastructure's reasons make it `infra_error` when they may have changed the outcome —
 * anything short of every test passed with no policy fault; otherwise content the policy authored
 * (provenance below the threshold: scored 0 whatever the tests say) outranks a policy fault, which
 * outranks a spent budget, which outranks a timeout: each says who is to blame first.
 */
export function scenarioStatusOf(
  run: RunForBlame,
  verified: { testsPassed: number; testsTotal: number },
): { status: ScenarioStatus; reason?: string } {
  const injection = run.policy?.injection;
  if (injection && isInjectionViolation(injection))
    return { status: injectedScenarioContent, reason: describeInjection(injection) };
  const upstreamFailures = run.policy?.upstreamFailures ?? 0;
  const faults = run.policy?.faults.length ?? 0;
  const unaffected =
    faults === 0 &&
    run.outcome === 'completed' &&
    verified.testsTotal > 0 &&
    verified.testsPassed === verified.testsTotal;
  if (upstreamFailures > 0 && !unaffected) {
    return {
      status: 'infra_error',
      reason: `${upstreamFailures} model call${upstreamFailures === 1 ? '' : 's'} failed upstream (rate limit, 5xx, timeout or the validator's account) after the gateway's retries`,
    };
  }
  const provenance = run.policy?.provenance;
  if (provenance && isProvenanceViolation(provenance)) {
    return {
      status: 'provenance_violation',
      reason: provenanceViolationReason(provenance),
    };
  }
  if (faults > 0) return { status: 'policy_error' };
  if (run.policy?.budgetRefusals) return { status: 'budget_exhausted' };
  return { status: run.outcome === 'agent_timeout' ? 'agent_timeout' : 'completed' };
}

/** Statuses that score 0 whatever the verifier found: what the agent received, or what the models were sent, was not
 * the models' and the agent's own. */
export const zeroScoredStatuses: readonly ScenarioStatus[] = ['provenance_violation', injectedScenarioContent];
