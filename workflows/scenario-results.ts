// The results each step of a scenario settles on (workflows/scenario-evaluation.ts): not run, described by its task,
// rescored, failed in the agent's run (whose fault decides the status), verified (the blame table's status), and the
// spend of tries run again after upstream failures. Pure: no I/O, no workflow calls.
import { scenarioStatusOf, zeroScoredStatuses } from '../contracts/blame.ts';
import { failureTypes, packFaultTypeList, upstreamUnavailableType } from '../contracts/failure-types.ts';
import type { AgentRunResult, PreparedScenario, ScenarioResult, VerificationResult } from '../contracts/results.ts';
import type { ReusedScenario } from '../contracts/submission.ts';

/** Set when a spend ceiling refused a scenario's paid run: no further paid scenario is started. */
export interface SpendStop {
  reason?: string;
}

/** One try of a scenario: its result, and how many of its calls failed upstream. */
export interface Attempt {
  status: ScenarioResult['status'];
  upstreamFailures: number;
  result: ScenarioResult;
}

export function unrunResult(name: string): ScenarioResult {
  return {
    name,
    status: 'infra_error',
    testsPassed: 0,
    testsTotal: 0,
    costUsd: 0,
    agentWallMs: 0,
    verifierWallMs: 0,
    artifacts: {},
  };
}

export function notRun(from: ScenarioResult, stoppedReason: string): ScenarioResult {
  return { ...from, status: 'ceiling_reached', error: `not run: ${stoppedReason}` };
}

/** What the prepared task says of itself, on every result from here on. */
export function describedResult(base: ScenarioResult, prepared: PreparedScenario): ScenarioResult {
  return {
    ...base,
    category: prepared.category,
    difficulty: prepared.difficulty,
    ...(prepared.contentHash ? { scenarioHash: prepared.contentHash } : {}),
    ...(prepared.notes?.length ? { notes: prepared.notes } : {}),
  };
}

/** Verified from the agent's snapshot, which did not outlive that verification. */
export function snapshotGone(reused: ReusedScenario, described: ScenarioResult): ScenarioResult {
  return {
    ...reused.result,
    ...described,
    status: 'infra_error',
    testsPassed: 0,
    testsTotal: 0,
    reusedFrom: reused.from,
    error:
      'verifier: this task declares no agent_outputs; its run was verified from a snapshot that is gone, so it cannot be rescored',
  };
}

export function rescoreBase(reused: ReusedScenario, described: ScenarioResult): ScenarioResult {
  return {
    ...reused.result,
    ...described,
    status: reused.result.status,
    costUsd: reused.result.costUsd,
    agentWallMs: reused.result.agentWallMs,
    reusedFrom: reused.from,
  };
}

export function rescored(
  earlier: ScenarioResult,
  reused: ReusedScenario,
  verification: VerificationResult,
): ScenarioResult {
  return {
    ...earlier,
    error: undefined,
    testsPassed: verification.testsPassed,
    testsTotal: verification.testsTotal,
    verifierWallMs: verification.wallMs,
    artifacts: {
      ...reused.result.artifacts,
      verifierReport: verification.report,
      verifierLog: verification.verifierLog,
    },
  };
}

export function unverified(earlier: ScenarioResult, message: string): ScenarioResult {
  return { ...earlier, status: 'infra_error', testsPassed: 0, testsTotal: 0, error: `verifier: ${message}` };
}

/** Spend of earlier tries of a scenario, in all and by model (so the scenario's cost by model sums to its cost). */
export interface EarlierTries {
  costUsd: number;
  byModelUsd: Record<string, number>;
}

export function withEarlier(
  earlier: EarlierTries,
  byModel: Record<string, number> | undefined,
): Record<string, number> {
  const sum = { ...earlier.byModelUsd };
  for (const [model, usd] of Object.entries(byModel ?? {})) sum[model] = (sum[model] ?? 0) + usd;
  return sum;
}

export function addTry(earlier: EarlierTries, result: ScenarioResult): void {
  earlier.costUsd += result.costUsd;
  Object.assign(earlier.byModelUsd, withEarlier(earlier, result.costByModelUsd));
}

/** A try that stands (scored, or failed for a reason other than the upstream), carrying the earlier tries' spend. */
export function lastTry(attempt: Attempt, earlier: EarlierTries, round: number): ScenarioResult {
  return {
    ...attempt.result,
    costUsd: attempt.result.costUsd + earlier.costUsd,
    ...(round > 1 ? { costByModelUsd: withEarlier(earlier, attempt.result.costByModelUsd) } : {}),
  };
}

export function everyTryFailedUpstream(attempt: Attempt, earlier: EarlierTries, round: number): ScenarioResult {
  return {
    ...attempt.result,
    costUsd: earlier.costUsd,
    costByModelUsd: { ...earlier.byModelUsd },
    error: `${attempt.result.error} in each of ${round} tries; the scenario is the infrastructure's, never scored`,
  };
}

export function attemptOf(result: ScenarioResult, upstreamFailures = 0): Attempt {
  return { status: result.status, upstreamFailures, result };
}

/** The agent's run failed: whose fault it is decides the status. */
export function agentFailed(
  described: ScenarioResult,
  failure: { type?: string; message: string },
  spend: SpendStop,
): ScenarioResult {
  // Not the policy's fault and not retried: the evaluation is incomplete, never scored on it.
  if (failure.type === failureTypes.spendCeilingReached) {
    spend.reason ??= failure.message;
    return { ...described, status: 'ceiling_reached', error: `agent: ${failure.message}` };
  }
  // The pack broke its own run (its sandbox, outputs, payloads, disk): the policy's failure,
  // scored 0 with the reason; the evaluation still completes.
  if (failure.type && packFaultTypeList.includes(failure.type)) {
    return {
      ...described,
      status: 'policy_error',
      unverified: true,
      error: `agent: ${failure.type}: ${failure.message}`,
    };
  }
  return { ...described, error: `agent: ${failure.message}` };
}

export function agentArtifacts(agentRun: AgentRunResult): ScenarioResult['artifacts'] {
  const policyArtifacts = agentRun.policy
    ? {
        modelCallLog: agentRun.policy.callLog,
        policyLog: agentRun.policy.policyLog,
        ...(agentRun.policy.turnLog ? { turnLog: agentRun.policy.turnLog } : {}),
      }
    : {};
  return {
    agentOutputs: agentRun.outputs,
    agentLog: agentRun.agentLog,
    ...(agentRun.agentRecords ? { agentRecords: agentRun.agentRecords } : {}),
    ...policyArtifacts,
  };
}

/** The run verified: the blame table's status, the tests, the policy's cost, faults and provenance. */
export function verified(
  described: ScenarioResult,
  agentRun: AgentRunResult,
  verification: VerificationResult,
  artifacts: ScenarioResult['artifacts'],
): ScenarioResult {
  const blamed = scenarioStatusOf(agentRun, verification);
  return {
    ...described,
    status: blamed.status,
    ...(blamed.reason
      ? {
          error:
            blamed.status === 'provenance_violation'
              ? `provenance: ${blamed.reason}`
              : blamed.status === 'injected_scenario_content'
                ? `injected_scenario_content: ${blamed.reason}`
                : `${upstreamUnavailableType}: ${blamed.reason}`,
        }
      : {}),
    costUsd: agentRun.policy?.costUsd ?? 0,
    ...(agentRun.policy?.costByModelUsd ? { costByModelUsd: agentRun.policy.costByModelUsd } : {}),
    policyFaults: agentRun.policy?.faults.length ? agentRun.policy.faults : undefined,
    ...(agentRun.policy?.provenance ? { provenance: agentRun.policy.provenance } : {}),
    ...(agentRun.policy?.injection ? { injection: agentRun.policy.injection } : {}),
    // Content the policy authored, or scenario content it carried in, scores nothing, whatever the tests found.
    testsPassed: zeroScoredStatuses.includes(blamed.status) ? 0 : verification.testsPassed,
    testsTotal: verification.testsTotal,
    ...(verification.notes?.length ? { notes: [...(described.notes ?? []), ...verification.notes] } : {}),
    agentWallMs: agentRun.wallMs,
    verifierWallMs: verification.wallMs,
    artifacts: { ...artifacts, verifierReport: verification.report, verifierLog: verification.verifierLog },
  };
}
