// evaluateSubmission: fetchPack → preEval → (prepare → run → verify) per scenario in parallel → aggregate.
// Deterministic: all I/O is in activities; only plain JSON crosses the boundary.
import {
  ActivityFailure,
  ApplicationFailure,
  proxyActivities,
  setHandler,
  upsertMemo,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type { ReusedScenario, Submission } from '../contracts/submission.ts';
import { reusableResults } from '../contracts/reuse-key.ts';
import type { AgentRunResult, EvaluationResult, PreparedScenario, Rejection, ScenarioDescriptor, ScenarioResult } from '../contracts/results.ts';
import { searchAttributes } from '../contracts/temporal-names.ts';
import { progressQuery, type EvaluationProgress, type ScenarioPhase } from '../contracts/progress.ts';

import { evaluationNonRetryableTypes, failureTypes, packRejectionTypes } from '../contracts/failure-types.ts';

const nonRetryableErrorTypes = [...evaluationNonRetryableTypes];

const quick = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 5, initialInterval: '1 second', nonRetryableErrorTypes },
});

/** Pre-evaluation may wait on the LLM judge (which retries on its own, then fails closed). */
const screening = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: { maximumAttempts: 2, initialInterval: '5 seconds', nonRetryableErrorTypes },
});

const builds = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '2 minutes',
  retry: { maximumAttempts: 3, initialInterval: '5 seconds', nonRetryableErrorTypes },
});

/** Per-scenario proxies: the timeout follows the scenario's own task.toml. */
function sandboxActivities(timeoutSec: number) {
  return proxyActivities<Activities>({
    startToCloseTimeout: `${Math.ceil(timeoutSec) + 300} seconds`,
    heartbeatTimeout: '20 seconds',
    retry: { maximumAttempts: 3, initialInterval: '2 seconds', nonRetryableErrorTypes },
  });
}

function failureText(error: unknown): { type?: string; message: string } {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure) return { type: cause.type ?? undefined, message: cause.message };
  return { message: error instanceof Error ? error.message : String(error) };
}

/** A policy fault outranks a spent budget, which outranks a timeout: each says who is to blame first. */
function scenarioStatus(run: AgentRunResult): ScenarioResult['status'] {
  if (run.policy?.faults.length) return 'policy_error';
  if (run.policy?.budgetRefusals) return 'budget_exhausted';
  return run.outcome === 'agent_timeout' ? 'agent_timeout' : 'completed';
}

export async function evaluateSubmission(submission: Submission): Promise<EvaluationResult> {
  const { workflowId } = workflowInfo();
  const progress: EvaluationProgress = { stage: 'fetching', scenarios: [] };
  setHandler(progressQuery, () => progress);
  upsertSearchAttributes([
    { key: searchAttributes.submissionId, value: submission.submissionId },
    { key: searchAttributes.status, value: 'running' },
  ]);

  // Set when a spend ceiling refused a scenario's paid run: no further paid scenario is started.
  let stoppedReason: string | undefined;

  const finish = async (input: { packHash?: string; scenarioSpec?: number | null; rejection?: Rejection[]; perScenario: ScenarioResult[] }) => {
    progress.stage = 'aggregating';
    const result = await quick.aggregate({ submissionId: submission.submissionId, workflowId, agent: submission.agent, ...input, ...(stoppedReason ? { stoppedReason } : {}) });
    upsertSearchAttributes([
      { key: searchAttributes.status, value: result.status },
      { key: searchAttributes.testsPassed, value: result.testsPassed },
    ]);
    upsertMemo({
      result: {
        status: result.status,
        testsPassed: result.testsPassed,
        testsTotal: result.testsTotal,
        costUsd: result.costUsd,
        ledgerCostUsd: result.ledgerCostUsd,
        stoppedReason: result.stoppedReason,
        rejection: result.rejection,
        resultFile: result.resultFile?.path,
      },
    });
    progress.stage = 'done';
    return result;
  };

  let pack;
  try {
    pack = await quick.fetchPack(submission.pack);
  } catch (error) {
    const failure = failureText(error);
    if (failure.type && packRejectionTypes.includes(failure.type)) {
      return finish({ rejection: [{ code: failure.type, message: failure.message }], perScenario: [] });
    }
    throw error;
  }
  progress.packHash = pack.packHash;
  upsertSearchAttributes([{ key: searchAttributes.packHash, value: pack.packHash }]);
  upsertMemo({ pack: { hash: pack.packHash, name: pack.name, files: pack.fileCount }, agent: submission.agent });

  progress.stage = 'pre-eval';
  const verdict = await screening.preEval({ pack, hotkey: submission.hotkey, scenariosDir: submission.scenariosDir });
  upsertMemo({ preEval: { verdict: verdict.verdict, report: verdict.report.path } });
  if (verdict.verdict === 'reject') return finish({ packHash: pack.packHash, rejection: verdict.reasons, perScenario: [] });

  const { spec: scenarioSpec, scenarios } = await quick.resolveScenarios({ names: submission.scenarios, scenariosDir: submission.scenariosDir });
  // A rerun (trl rerun): earlier results it may reuse, only where pack, spec, seed, agent and the scenario's content all match.
  let reusable = new Map<string, ReusedScenario>();
  if (submission.reuse?.length) {
    const hashes = await quick.hashScenarios({ scenarios });
    reusable = reusableResults(submission.reuse, { packHash: pack.packHash, spec: scenarioSpec ?? null, seed: submission.seed, agent: submission.agent }, hashes);
  }
  progress.stage = 'scenarios';
  progress.scenarios = scenarios.map((s) => ({ name: s.name, phase: 'queued' as ScenarioPhase }));
  const setPhase = (name: string, phase: ScenarioPhase, extra: Partial<EvaluationProgress['scenarios'][number]> = {}) => {
    const entry = progress.scenarios.find((s) => s.name === name);
    if (entry) Object.assign(entry, { phase, ...extra });
  };

  const evaluateScenario = async (scenario: ScenarioDescriptor): Promise<ScenarioResult> => {
    const base: ScenarioResult = { name: scenario.name, status: 'infra_error', testsPassed: 0, testsTotal: 0, costUsd: 0, agentWallMs: 0, verifierWallMs: 0, artifacts: {} };
    const done = (result: ScenarioResult) => {
      setPhase(scenario.name, 'done', { status: result.status, testsPassed: result.testsPassed, testsTotal: result.testsTotal });
      return result;
    };
    const notRun = (from: ScenarioResult): ScenarioResult => ({ ...from, status: 'ceiling_reached', error: `not run: ${stoppedReason}` });
    const reused = reusable.get(scenario.name);
    if (reused && reused.mode !== 'verify') return done({ ...reused.result, reusedFrom: reused.from });
    if (stoppedReason) return done(notRun(base));
    let prepared: PreparedScenario;
    try {
      setPhase(scenario.name, 'building');
      prepared = await builds.prepareScenario(scenario);
    } catch (error) {
      return done({ ...base, error: `prepare: ${failureText(error).message}` });
    }
    const described = { ...base, category: prepared.category, difficulty: prepared.difficulty, ...(prepared.contentHash ? { scenarioHash: prepared.contentHash } : {}) };
    const sandbox = sandboxActivities(Math.max(prepared.agentTimeoutSec, prepared.verifierTimeoutSec));
    if (reused?.mode === 'verify' && reused.result.artifacts.agentOutputs) {
      // A rescore: today's verifier over the stored agent outputs; the agent's run and its cost stand.
      const earlier = { ...reused.result, ...described, status: reused.result.status, costUsd: reused.result.costUsd, agentWallMs: reused.result.agentWallMs, reusedFrom: reused.from };
      try {
        setPhase(scenario.name, 'verifying');
        const verification = await sandbox.verifyScenario({ scenario: prepared, outputs: reused.result.artifacts.agentOutputs });
        return done({ ...earlier, error: undefined, testsPassed: verification.testsPassed, testsTotal: verification.testsTotal, verifierWallMs: verification.wallMs, artifacts: { ...reused.result.artifacts, verifierReport: verification.report, verifierLog: verification.verifierLog } });
      } catch (error) {
        return done({ ...earlier, status: 'infra_error', testsPassed: 0, testsTotal: 0, error: `verifier: ${failureText(error).message}` });
      }
    }
    if (stoppedReason) return done(notRun(described));
    // A tape run never falls back to the paid upstream: a scenario the recording lacks is not run.
    if (submission.tape && !submission.tape.callLogs[scenario.name]) return done({ ...described, error: `agent: the tape of ${submission.tape.of} has no recording of ${scenario.name}` });
    let run;
    try {
      setPhase(scenario.name, 'agent');
      const tape = submission.tape?.callLogs[scenario.name];
      run = await sandbox.runScenario({ scenario: prepared, agent: submission.agent, pack, seed: submission.seed, submissionId: submission.submissionId, ...(tape ? { tape } : {}) });
    } catch (error) {
      const failure = failureText(error);
      // Not the policy's fault and not retried: the evaluation is incomplete, never scored on it.
      if (failure.type === failureTypes.spendCeilingReached) {
        stoppedReason ??= failure.message;
        return done({ ...described, status: 'ceiling_reached', error: `agent: ${failure.message}` });
      }
      return done({ ...described, error: `agent: ${failure.message}` });
    }
    const policyArtifacts = run.policy
      ? { modelCallLog: run.policy.callLog, policyLog: run.policy.policyLog, ...(run.policy.turnLog ? { turnLog: run.policy.turnLog } : {}) }
      : {};
    const artifacts = { agentOutputs: run.outputs, agentLog: run.agentLog, ...(run.agentRecords ? { agentRecords: run.agentRecords } : {}), ...policyArtifacts };
    const costUsd = run.policy?.costUsd ?? 0;
    try {
      setPhase(scenario.name, 'verifying');
      const verification = await sandbox.verifyScenario({ scenario: prepared, outputs: run.outputs });
      return done({
        ...described,
        status: scenarioStatus(run),
        costUsd,
        ...(run.policy?.costByModelUsd ? { costByModelUsd: run.policy.costByModelUsd } : {}),
        policyFaults: run.policy?.faults.length ? run.policy.faults : undefined,
        testsPassed: verification.testsPassed,
        testsTotal: verification.testsTotal,
        agentWallMs: run.wallMs,
        verifierWallMs: verification.wallMs,
        artifacts: { ...artifacts, verifierReport: verification.report, verifierLog: verification.verifierLog },
      });
    } catch (error) {
      return done({ ...described, costUsd, agentWallMs: run.wallMs, artifacts, error: `verifier: ${failureText(error).message}` });
    }
  };

  const perScenario = await Promise.all(scenarios.map(evaluateScenario));
  return finish({ packHash: pack.packHash, scenarioSpec, perScenario });
}
