// evaluateSubmission: fetchPack → preEval → (prepare → run → verify) per scenario in parallel → aggregate.
// Deterministic: all I/O is in activities; only plain JSON crosses the boundary.
import {
  ActivityFailure,
  ApplicationFailure,
  patched,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  sleep,
  upsertMemo,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type { ReusedScenario, Submission } from '../contracts/submission.ts';
import { reusableResults } from '../contracts/reuse-key.ts';
import type {
  AgentRunResult,
  EvaluationResult,
  PreparedScenario,
  Rejection,
  ScenarioDescriptor,
  ScenarioResult,
} from '../contracts/results.ts';
import { sandboxHostLimits, searchAttributes } from '../contracts/temporal-names.ts';
import { progressQuery, type EvaluationProgress, type ScenarioPhase } from '../contracts/progress.ts';

import {
  evaluationNonRetryableTypes,
  failureTypes,
  packFaultTypeList,
  packRejectionTypes,
  upstreamUnavailableType,
} from '../contracts/failure-types.ts';
import { scenarioStatusOf } from '../contracts/blame.ts';
import { preparationFailed } from '../contracts/task-invalid.ts';
import { probeLimits } from '../contracts/probe.ts';
import { isPolicyDriven } from '../contracts/agent-kinds.ts';
import { progressDetails, resultDetails, summarized } from './run-metadata.ts';
import { pairedGate } from './paired-gate.ts';
import { summarizeEvaluation } from '../scoring/evaluation-summary.ts';
import { onHostQueue, sandboxClaims, sandboxHostQueuesPatch, watchingHost, type HostTenure } from './sandbox-host.ts';

const nonRetryableErrorTypes = [...evaluationNonRetryableTypes];

const quick = summarized(
  proxyActivities<Activities>({
    startToCloseTimeout: '2 minutes',
    retry: { maximumAttempts: 5, initialInterval: '1 second', nonRetryableErrorTypes },
  }),
);

/** Pre-evaluation may wait on the LLM judge (which retries on its own, then fails closed). */
const screening = summarized(
  proxyActivities<Activities>({
    startToCloseTimeout: '10 minutes',
    // The activity heartbeats: a worker killed mid-screening is noticed in seconds, not minutes.
    heartbeatTimeout: '30 seconds',
    retry: { maximumAttempts: 2, initialInterval: '5 seconds', nonRetryableErrorTypes },
  }),
);

/** Image builds; on the scenario's sandbox host when it has one (README "Roles and host queues"). */
function buildActivities(hostQueue?: string) {
  return summarized(
    proxyActivities<Activities>({
      ...(hostQueue ? onHostQueue(hostQueue) : {}),
      startToCloseTimeout: '30 minutes',
      heartbeatTimeout: '2 minutes',
      retry: { maximumAttempts: 3, initialInterval: '5 seconds', nonRetryableErrorTypes },
    }),
  );
}

/** The probe: one conversation per scenario, each bounded by probeLimits.conversationSec. */
function probeActivities(scenarioCount: number) {
  return summarized(
    proxyActivities<Activities>({
      startToCloseTimeout: `${scenarioCount * (probeLimits.conversationSec + 30) + 60} seconds`,
      heartbeatTimeout: '30 seconds',
      retry: { maximumAttempts: 2, initialInterval: '5 seconds', nonRetryableErrorTypes },
    }),
  );
}

/** Per-scenario proxies: the timeout follows the scenario's own task.toml. */
function sandboxActivities(timeoutSec: number, hostQueue?: string) {
  return summarized(
    proxyActivities<Activities>({
      ...(hostQueue ? onHostQueue(hostQueue) : {}),
      startToCloseTimeout: `${Math.ceil(timeoutSec) + 300} seconds`,
      heartbeatTimeout: '20 seconds',
      retry: { maximumAttempts: 3, initialInterval: '2 seconds', nonRetryableErrorTypes },
    }),
  );
}

function failureText(error: unknown): { type?: string; message: string } {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure) return { type: cause.type ?? undefined, message: cause.message };
  return { message: error instanceof Error ? error.message : String(error) };
}

/**
 * A scenario whose outcome calls failing upstream (infrastructure) may have changed is run again
 * after these pauses; when it still is, it is `infra_error` (contracts/blame.ts).
 */
const upstreamRetryPausesSec = [10, 30];

export async function evaluateSubmission(submission: Submission): Promise<EvaluationResult> {
  const { workflowId } = workflowInfo();
  const progress: EvaluationProgress = { stage: 'fetching', scenarios: [] };
  setHandler(progressQuery, () => progress);
  upsertSearchAttributes([
    { key: searchAttributes.submissionId, value: submission.submissionId },
    { key: searchAttributes.status, value: 'running' },
    ...(submission.hotkey ? [{ key: searchAttributes.hotkey, value: submission.hotkey }] : []),
  ]);
  setCurrentDetails(progressDetails(progress));

  // The seat's fair pairing: each scenario's run waits for the seat to release it to both sides.
  const gate = pairedGate(submission.pairing);

  // Set when a spend ceiling refused a scenario's paid run: no further paid scenario is started.
  let stoppedReason: string | undefined;

  const finish = async (input: {
    packHash?: string;
    scenarioSpec?: number | null;
    rejection?: Rejection[];
    perScenario: ScenarioResult[];
  }) => {
    progress.stage = 'aggregating';
    const summaryInput = {
      submissionId: submission.submissionId,
      workflowId,
      agent: submission.agent,
      ...input,
      ...(stoppedReason ? { stoppedReason } : {}),
    };
    let result: EvaluationResult;
    try {
      result = await quick.aggregate(summaryInput);
    } catch (error) {
      // The result could not be written (a full disk, …): the evaluation still ends, never fails
      // or hangs on it — `incomplete`, totals from the pure summary, the result kept in the history.
      const summary = summarizeEvaluation(summaryInput);
      result = {
        ...summary,
        status: summary.status === 'rejected' ? 'rejected' : 'incomplete',
        stoppedReason: `the result could not be recorded: ${failureText(error).message}`,
      };
    }
    upsertSearchAttributes([
      { key: searchAttributes.status, value: result.status },
      { key: searchAttributes.testsPassed, value: result.testsPassed },
      { key: searchAttributes.costUsd, value: result.costUsd },
      ...(typeof result.scenarioSpec === 'number' ? [{ key: searchAttributes.spec, value: result.scenarioSpec }] : []),
      ...(result.manifestHash ? [{ key: searchAttributes.specHash, value: result.manifestHash }] : []),
    ]);
    setCurrentDetails(resultDetails(result));
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
        manifestHash: result.manifestHash,
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
  if (verdict.verdict === 'reject')
    return finish({ packHash: pack.packHash, rejection: verdict.reasons, perScenario: [] });

  const { spec: scenarioSpec, scenarios } = await quick.resolveScenarios({
    names: submission.scenarios,
    scenariosDir: submission.scenariosDir,
  });
  // The behavioural probe, at $0: the policy in its sandbox on each scenario's opening, a bland upstream answering.
  if (isPolicyDriven(submission.agent) && scenarios.length > 0) {
    progress.stage = 'probe';
    const probe = await probeActivities(scenarios.length).probePolicy({ pack, scenarios });
    upsertMemo({
      probe: {
        verdict: probe.verdict,
        conversations: probe.conversations,
        report: probe.report.path,
        ...(probe.cached ? { cached: true } : {}),
      },
    });
    if (probe.verdict === 'reject')
      return finish({ packHash: pack.packHash, scenarioSpec, rejection: probe.reasons, perScenario: [] });
  }
  // A rerun (trl rerun): earlier results it may reuse, only where pack, spec, seed, agent and the scenario's content
  // all match.
  let reusable = new Map<string, ReusedScenario>();
  if (submission.reuse?.length) {
    const hashes = await quick.hashScenarios({ scenarios });
    reusable = reusableResults(
      submission.reuse,
      { packHash: pack.packHash, spec: scenarioSpec ?? null, seed: submission.seed, agent: submission.agent },
      hashes,
    );
  }
  await gate.ready(scenarios.map((s) => s.name));
  progress.stage = 'scenarios';
  progress.scenarios = scenarios.map((s) => ({ name: s.name, phase: 'queued' as ScenarioPhase }));
  const setPhase = (
    name: string,
    phase: ScenarioPhase,
    extra: Partial<EvaluationProgress['scenarios'][number]> = {},
  ) => {
    const entry = progress.scenarios.find((s) => s.name === name);
    if (entry) Object.assign(entry, { phase, ...extra });
    setCurrentDetails(progressDetails(progress));
  };

  // Each scenario on one sandbox host, claimed first; histories from before the roles replay without the claim.
  const onHosts = patched(sandboxHostQueuesPatch);
  const claims = sandboxClaims(workflowInfo().taskQueue);

  /** The scenario on one host after another: a host lost mid-scenario means starting over from a new claim. */
  const evaluateScenario = async (scenario: ScenarioDescriptor): Promise<ScenarioResult> => {
    const lostHosts: string[] = [];
    let triesBefore = 0;
    for (;;) {
      const tenure: HostTenure = { hostId: '', lost: false, triesBefore, tries: 0 };
      const result = await evaluateScenarioOn(scenario, tenure);
      if (!tenure.lost) return result;
      lostHosts.push(tenure.hostId);
      triesBefore += tenure.tries;
      if (lostHosts.length > sandboxHostLimits.maxHostChanges) {
        const lost: ScenarioResult = {
          ...result,
          status: 'infra_error',
          testsPassed: 0,
          error: `${failureTypes.sandboxHostLost}: the scenario lost its sandbox host ${lostHosts.length} times (${lostHosts.join(', ')}); last: ${result.error ?? 'no error'}`,
        };
        setPhase(scenario.name, 'done', { status: lost.status, testsPassed: 0, testsTotal: lost.testsTotal });
        return lost;
      }
      setPhase(scenario.name, 'queued');
    }
  };

  /** The host's own queue for this scenario, once a host with room has claimed it; none before the roles. */
  const claimHost = async (scenario: ScenarioDescriptor, tenure: HostTenure): Promise<string | undefined> => {
    if (!onHosts) return undefined;
    const claim = await claims.claimSandboxHost({ name: scenario.name });
    tenure.hostId = claim.hostId;
    return claim.taskQueue;
  };

  const evaluateScenarioOn = async (scenario: ScenarioDescriptor, tenure: HostTenure): Promise<ScenarioResult> => {
    const base: ScenarioResult = {
      name: scenario.name,
      status: 'infra_error',
      testsPassed: 0,
      testsTotal: 0,
      costUsd: 0,
      agentWallMs: 0,
      verifierWallMs: 0,
      artifacts: {},
    };
    const done = (result: ScenarioResult) => {
      setPhase(scenario.name, 'done', {
        status: result.status,
        testsPassed: result.testsPassed,
        testsTotal: result.testsTotal,
      });
      return result;
    };
    const notRun = (from: ScenarioResult): ScenarioResult => ({
      ...from,
      status: 'ceiling_reached',
      error: `not run: ${stoppedReason}`,
    });
    const reused = reusable.get(scenario.name);
    if (reused && reused.mode !== 'verify') return done({ ...reused.result, reusedFrom: reused.from });
    if (stoppedReason) return done(notRun(base));
    let hostQueue: string | undefined;
    try {
      hostQueue = await claimHost(scenario, tenure);
    } catch (error) {
      return done({ ...base, error: `claim: ${failureText(error).message}` });
    }
    const onHost = <T extends object>(proxy: T): T => (hostQueue ? watchingHost(proxy, tenure) : proxy);
    let prepared: PreparedScenario;
    try {
      setPhase(scenario.name, 'building');
      prepared = await onHost(buildActivities(hostQueue)).prepareScenario(scenario);
    } catch (error) {
      return done(preparationFailed(base, error));
    }
    const described = {
      ...base,
      category: prepared.category,
      difficulty: prepared.difficulty,
      ...(prepared.contentHash ? { scenarioHash: prepared.contentHash } : {}),
      ...(prepared.notes?.length ? { notes: prepared.notes } : {}),
    };
    const sandbox = onHost(
      sandboxActivities(Math.max(prepared.agentTimeoutSec, prepared.verifierTimeoutSec), hostQueue),
    );
    if (reused?.mode === 'verify' && prepared.agentOutputs.length === 0) {
      // Verified from the agent's snapshot, which did not outlive that verification.
      return done({
        ...reused.result,
        ...described,
        status: 'infra_error',
        testsPassed: 0,
        testsTotal: 0,
        reusedFrom: reused.from,
        error:
          'verifier: this task declares no agent_outputs; its run was verified from a snapshot that is gone, so it cannot be rescored',
      });
    }
    if (reused?.mode === 'verify' && reused.result.artifacts.agentOutputs) {
      // A rescore: today's verifier over the stored agent outputs; the agent's run and its cost stand.
      const earlier = {
        ...reused.result,
        ...described,
        status: reused.result.status,
        costUsd: reused.result.costUsd,
        agentWallMs: reused.result.agentWallMs,
        reusedFrom: reused.from,
      };
      try {
        setPhase(scenario.name, 'verifying');
        const verification = await sandbox.verifyScenario({
          scenario: prepared,
          outputs: reused.result.artifacts.agentOutputs,
        });
        return done({
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
        });
      } catch (error) {
        return done({
          ...earlier,
          status: 'infra_error',
          testsPassed: 0,
          testsTotal: 0,
          error: `verifier: ${failureText(error).message}`,
        });
      }
    }
    await gate.enter(scenario.name);
    if (stoppedReason) return done(notRun(described));
    // Spend of earlier tries of this scenario (run again because calls failed upstream).
    let earlierCostUsd = 0;
    // …and by model, so the scenario's cost by model sums to its cost.
    const earlierByModel: Record<string, number> = {};
    const withEarlier = (byModel: Record<string, number> | undefined): Record<string, number> => {
      const sum = { ...earlierByModel };
      for (const [model, usd] of Object.entries(byModel ?? {})) sum[model] = (sum[model] ?? 0) + usd;
      return sum;
    };
    // A tape run never falls back to the paid upstream: a scenario the recording lacks is not run.
    if (submission.tape && !submission.tape.callLogs[scenario.name])
      return done({
        ...described,
        error: `agent: the tape of ${submission.tape.of} has no recording of ${scenario.name}`,
      });
    for (let round = 1; ; round++) {
      // Tries on hosts that were lost count too: each try keeps its own folder, sandbox names and snapshot.
      const attempt = await runAndVerify(scenario, prepared, described, sandbox, round + tenure.triesBefore);
      tenure.tries = round;
      if (attempt.status !== 'infra_error' || !attempt.upstreamFailures)
        return done({
          ...attempt.result,
          costUsd: attempt.result.costUsd + earlierCostUsd,
          ...(round > 1 ? { costByModelUsd: withEarlier(attempt.result.costByModelUsd) } : {}),
        });
      earlierCostUsd += attempt.result.costUsd;
      Object.assign(earlierByModel, withEarlier(attempt.result.costByModelUsd));
      const pause = upstreamRetryPausesSec[round - 1];
      if (pause === undefined || stoppedReason) {
        return done({
          ...attempt.result,
          costUsd: earlierCostUsd,
          costByModelUsd: { ...earlierByModel },
          error: `${attempt.result.error} in each of ${round} tries; the scenario is the infrastructure's, never scored`,
        });
      }
      setPhase(scenario.name, 'queued');
      await sleep(`${pause} seconds`, { summary: `pause · ${scenario.name} · before try ${round + 1}` });
    }
  };

  /** One try of a scenario: the agent's run, then the verifier, with the status the blame table gives. */
  const runAndVerify = async (
    scenario: ScenarioDescriptor,
    prepared: PreparedScenario,
    described: ScenarioResult,
    sandbox: ReturnType<typeof sandboxActivities>,
    round: number,
  ): Promise<{ status: ScenarioResult['status']; upstreamFailures: number; result: ScenarioResult }> => {
    const settled = (result: ScenarioResult, upstreamFailures = 0) => ({
      status: result.status,
      upstreamFailures,
      result,
    });
    let run: AgentRunResult;
    try {
      setPhase(scenario.name, 'agent');
      const tape = submission.tape?.callLogs[scenario.name];
      run = await sandbox.runScenario({
        scenario: prepared,
        agent: submission.agent,
        pack,
        seed: submission.seed,
        submissionId: submission.submissionId,
        ...(round > 1 ? { round } : {}),
        ...(tape ? { tape } : {}),
      });
    } catch (error) {
      const failure = failureText(error);
      // Not the policy's fault and not retried: the evaluation is incomplete, never scored on it.
      if (failure.type === failureTypes.spendCeilingReached) {
        stoppedReason ??= failure.message;
        return settled({ ...described, status: 'ceiling_reached', error: `agent: ${failure.message}` });
      }
      // The pack broke its own run (its sandbox, outputs, payloads, disk): the policy's failure,
      // scored 0 with the reason; the evaluation still completes.
      if (failure.type && packFaultTypeList.includes(failure.type)) {
        return settled({
          ...described,
          status: 'policy_error',
          unverified: true,
          error: `agent: ${failure.type}: ${failure.message}`,
        });
      }
      return settled({ ...described, error: `agent: ${failure.message}` });
    }
    const policyArtifacts = run.policy
      ? {
          modelCallLog: run.policy.callLog,
          policyLog: run.policy.policyLog,
          ...(run.policy.turnLog ? { turnLog: run.policy.turnLog } : {}),
        }
      : {};
    const artifacts = {
      agentOutputs: run.outputs,
      agentLog: run.agentLog,
      ...(run.agentRecords ? { agentRecords: run.agentRecords } : {}),
      ...policyArtifacts,
    };
    const costUsd = run.policy?.costUsd ?? 0;
    try {
      setPhase(scenario.name, 'verifying');
      const verification = await sandbox.verifyScenario({
        scenario: prepared,
        outputs: run.outputs,
        ...(run.snapshotImage ? { snapshotImage: run.snapshotImage } : {}),
        ...(round > 1 ? { round } : {}),
      });
      const blamed = scenarioStatusOf(run, verification);
      return settled(
        {
          ...described,
          status: blamed.status,
          ...(blamed.reason
            ? {
                error:
                  blamed.status === 'provenance_violation'
                    ? `provenance: ${blamed.reason}`
                    : `${upstreamUnavailableType}: ${blamed.reason}`,
              }
            : {}),
          costUsd,
          ...(run.policy?.costByModelUsd ? { costByModelUsd: run.policy.costByModelUsd } : {}),
          policyFaults: run.policy?.faults.length ? run.policy.faults : undefined,
          ...(run.policy?.provenance ? { provenance: run.policy.provenance } : {}),
          // Content the policy authored scores nothing, whatever the tests found.
          testsPassed: blamed.status === 'provenance_violation' ? 0 : verification.testsPassed,
          testsTotal: verification.testsTotal,
          ...(verification.notes?.length ? { notes: [...(described.notes ?? []), ...verification.notes] } : {}),
          agentWallMs: run.wallMs,
          verifierWallMs: verification.wallMs,
          artifacts: { ...artifacts, verifierReport: verification.report, verifierLog: verification.verifierLog },
        },
        run.policy?.upstreamFailures ?? 0,
      );
    } catch (error) {
      return settled({
        ...described,
        costUsd,
        agentWallMs: run.wallMs,
        artifacts,
        error: `verifier: ${failureText(error).message}`,
      });
    }
  };

  const perScenario = await Promise.all(
    scenarios.map(async (scenario) => {
      const result = await evaluateScenario(scenario);
      await gate.leave(scenario.name);
      return result;
    }),
  );
  return finish({ packHash: pack.packHash, scenarioSpec, perScenario });
}
