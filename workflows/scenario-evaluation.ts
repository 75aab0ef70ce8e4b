// One scenario of an evaluation: claim a sandbox host → prepare → (rescore | wait for the seat's gate → run and
// verify, again after a pause while calls fail upstream). A host lost mid-scenario means starting over on a new claim.
//
// The async functions here keep the call structure the workflow had before it was split into phases (a scenario's
// host loop → one host's steps → one try), so the commands of concurrent scenarios interleave as they always did and
// recorded histories replay (test/integration/recorded-histories.test.ts); the rest is synchronous helpers.
import { patched, setCurrentDetails, sleep } from '@temporalio/workflow';
import { preparationFailed } from '../contracts/task-invalid.ts';
import { failureTypes } from '../contracts/failure-types.ts';
import type { EvaluationProgress, ScenarioPhase } from '../contracts/progress.ts';
import type {
  AgentRunResult,
  PackRef,
  PreparedScenario,
  ScenarioDescriptor,
  ScenarioResult,
} from '../contracts/results.ts';
import type { ReusedScenario, Submission } from '../contracts/submission.ts';
import { sandboxHostLimits } from '../contracts/temporal-names.ts';
import {
  buildActivities,
  failureText,
  releaseActivities,
  sandboxActivities,
  type SandboxActivities,
} from './evaluation-proxies.ts';
import type { PairedGate } from './paired-gate.ts';
import { progressDetails } from './run-metadata.ts';
import { watchingHost, type HostTenure, type sandboxClaims } from './sandbox-host.ts';
import {
  addTry,
  agentArtifacts,
  agentFailed,
  attemptOf,
  describedResult,
  everyTryFailedUpstream,
  lastTry,
  notRun,
  rescoreBase,
  rescored,
  snapshotGone,
  unrunResult,
  unverified,
  verified,
  type Attempt,
  type EarlierTries,
  type SpendStop,
} from './scenario-results.ts';

/** What every scenario of one evaluation shares. */
export interface ScenarioRun {
  submission: Submission;
  pack: PackRef;
  /** Earlier results a rerun may use, by scenario name. */
  reusable: Map<string, ReusedScenario>;
  gate: PairedGate;
  progress: EvaluationProgress;
  spend: SpendStop;
  /** Scenarios are claimed by a sandbox host (false in histories from before the roles), through these claims. */
  onHosts: boolean;
  claims: ReturnType<typeof sandboxClaims>;
  /** A paired evaluation's scenarios by their place in the seat's release order (the hosts take them in it). */
  claimRank?: ReadonlyMap<string, number>;
  /** The scenarios the evaluation claims at once: a host with room for all of them takes each without waiting. */
  claimsTogether?: number;
}

/**
 * A scenario whose outcome calls failing upstream (infrastructure) may have changed is run again
 * after these pauses; when it still is, it is `infra_error` (contracts/blame.ts).
 */
const upstreamRetryPausesSec = [10, 30];

/** Histories from before a scenario's end released its host's claim schedule no such activity. */
export const releaseHostClaimPatch = 'release-host-claim';

/** The scenario on one host after another: a host lost mid-scenario means starting over from a new claim. */
export async function evaluateScenario(run: ScenarioRun, scenario: ScenarioDescriptor): Promise<ScenarioResult> {
  const lostHosts: string[] = [];
  let triesBefore = 0;
  for (;;) {
    const tenure: HostTenure = { hostId: '', lost: false, triesBefore, tries: 0 };
    const result = await evaluateScenarioOn(run, scenario, tenure);
    if (!tenure.lost) {
      await releaseHost(tenure, scenario);
      return result;
    }
    lostHosts.push(tenure.hostId);
    triesBefore += tenure.tries;
    if (lostHosts.length > sandboxHostLimits.maxHostChanges) {
      const lost: ScenarioResult = {
        ...result,
        status: 'infra_error',
        testsPassed: 0,
        error: `${failureTypes.sandboxHostLost}: the scenario lost its sandbox host ${lostHosts.length} times (${lostHosts.join(', ')}); last: ${result.error ?? 'no error'}`,
      };
      setPhase(run.progress, scenario.name, 'done', {
        status: lost.status,
        testsPassed: 0,
        testsTotal: lost.testsTotal,
      });
      return lost;
    }
    setPhase(run.progress, scenario.name, 'queued');
  }
}

/** The host's own queue for this scenario, once a host with room has claimed it; none before the roles. */
async function claimHost(run: ScenarioRun, scenario: ScenarioDescriptor, tenure: HostTenure) {
  if (!run.onHosts) return undefined;
  const rank = run.claimRank?.get(scenario.name);
  const claim = await run.claims.claimSandboxHost({
    name: scenario.name,
    dir: scenario.dir,
    ...(rank !== undefined ? { rank } : {}),
    ...(run.claimsTogether !== undefined ? { together: run.claimsTogether } : {}),
  });
  tenure.hostId = claim.hostId;
  tenure.taskQueue = claim.taskQueue;
  return claim.taskQueue;
}

/** The scenario is done on its host: the room it held is free at once (a verification ended it already; a scenario
 * that stopped before one — the ceiling, a failed run — held it until the host's idle timeout). Best effort. */
async function releaseHost(tenure: HostTenure, scenario: ScenarioDescriptor): Promise<void> {
  if (!tenure.taskQueue || !patched(releaseHostClaimPatch)) return;
  try {
    await releaseActivities(tenure.taskQueue).releaseSandboxHost({ name: scenario.name });
  } catch {
    // The host is gone or busy past the timeout: its idle timeout frees the room.
  }
}

/** The scenario on one host: reused, claimed, prepared, then rescored or run (again while calls fail upstream). */
async function evaluateScenarioOn(
  run: ScenarioRun,
  scenario: ScenarioDescriptor,
  tenure: HostTenure,
): Promise<ScenarioResult> {
  const done = (result: ScenarioResult) => settle(run.progress, scenario.name, result);
  const base = unrunResult(scenario.name);
  const reused = run.reusable.get(scenario.name);
  if (reused && reused.mode !== 'verify') return done({ ...reused.result, reusedFrom: reused.from });
  if (run.spend.reason) return done(notRun(base, run.spend.reason));
  let hostQueue: string | undefined;
  try {
    hostQueue = await claimHost(run, scenario, tenure);
  } catch (error) {
    return done({ ...base, error: `claim: ${failureText(error).message}` });
  }
  const onHost = <T extends object>(proxy: T): T => (hostQueue ? watchingHost(proxy, tenure) : proxy);
  let prepared: PreparedScenario;
  try {
    setPhase(run.progress, scenario.name, 'building');
    prepared = await onHost(buildActivities(hostQueue)).prepareScenario(scenario);
  } catch (error) {
    return done(preparationFailed(base, error));
  }
  const described = describedResult(base, prepared);
  const sandbox = onHost(sandboxActivities(Math.max(prepared.agentTimeoutSec, prepared.verifierTimeoutSec), hostQueue));
  if (reused?.mode === 'verify' && prepared.agentOutputs.length === 0) return done(snapshotGone(reused, described));
  if (reused?.mode === 'verify' && reused.result.artifacts.agentOutputs) {
    // A rescore: today's verifier over the stored agent outputs; the agent's run and its cost stand.
    const earlier = rescoreBase(reused, described);
    try {
      setPhase(run.progress, scenario.name, 'verifying');
      const outputs = reused.result.artifacts.agentOutputs;
      const verification = await sandbox.verifyScenario({ scenario: prepared, outputs });
      return done(rescored(earlier, reused, verification));
    } catch (error) {
      return done(unverified(earlier, failureText(error).message));
    }
  }
  await run.gate.enter(scenario.name);
  if (run.spend.reason) return done(notRun(described, run.spend.reason));
  // A tape run never falls back to the paid upstream: a scenario the recording lacks is not run.
  const { tape } = run.submission;
  if (tape && !tape.callLogs[scenario.name])
    return done({ ...described, error: `agent: the tape of ${tape.of} has no recording of ${scenario.name}` });
  // Spend of earlier tries of this scenario (run again because calls failed upstream).
  const earlier: EarlierTries = { costUsd: 0, byModelUsd: {} };
  for (let round = 1; ; round++) {
    // Tries on hosts that were lost count too: each try keeps its own folder, sandbox names and snapshot.
    const attempt = await runAndVerify(run, scenario, prepared, described, sandbox, round + tenure.triesBefore);
    tenure.tries = round;
    if (attempt.status !== 'infra_error' || !attempt.upstreamFailures) return done(lastTry(attempt, earlier, round));
    addTry(earlier, attempt.result);
    const pause = upstreamRetryPausesSec[round - 1];
    if (pause === undefined || run.spend.reason) return done(everyTryFailedUpstream(attempt, earlier, round));
    setPhase(run.progress, scenario.name, 'queued');
    await sleep(`${pause} seconds`, { summary: `pause · ${scenario.name} · before try ${round + 1}` });
  }
}

/** One try of a scenario: the agent's run, then the verifier, with the status the blame table gives. */
async function runAndVerify(
  run: ScenarioRun,
  scenario: ScenarioDescriptor,
  prepared: PreparedScenario,
  described: ScenarioResult,
  sandbox: SandboxActivities,
  round: number,
): Promise<Attempt> {
  const { submission } = run;
  let agentRun: AgentRunResult;
  try {
    setPhase(run.progress, scenario.name, 'agent');
    const tape = submission.tape?.callLogs[scenario.name];
    agentRun = await sandbox.runScenario({
      scenario: prepared,
      agent: submission.agent,
      pack: run.pack,
      seed: submission.seed,
      submissionId: submission.submissionId,
      ...(round > 1 ? { round } : {}),
      ...(tape ? { tape } : {}),
    });
  } catch (error) {
    return attemptOf(agentFailed(described, failureText(error), run.spend));
  }
  const artifacts = agentArtifacts(agentRun);
  try {
    setPhase(run.progress, scenario.name, 'verifying');
    const verification = await sandbox.verifyScenario({
      scenario: prepared,
      outputs: agentRun.outputs,
      ...(agentRun.snapshotImage ? { snapshotImage: agentRun.snapshotImage } : {}),
      ...(round > 1 ? { round } : {}),
    });
    return attemptOf(verified(described, agentRun, verification, artifacts), agentRun.policy?.upstreamFailures ?? 0);
  } catch (error) {
    return attemptOf({
      ...described,
      costUsd: agentRun.policy?.costUsd ?? 0,
      agentWallMs: agentRun.wallMs,
      artifacts,
      error: `verifier: ${failureText(error).message}`,
    });
  }
}

// The scenario's row in the progress query and the Web UI's details.

function setPhase(
  progress: EvaluationProgress,
  name: string,
  phase: ScenarioPhase,
  extra: Partial<EvaluationProgress['scenarios'][number]> = {},
): void {
  const entry = progress.scenarios.find((s) => s.name === name);
  if (entry) Object.assign(entry, { phase, ...extra });
  setCurrentDetails(progressDetails(progress));
}

/** The scenario's final result, shown in its progress row. */
function settle(progress: EvaluationProgress, name: string, result: ScenarioResult): ScenarioResult {
  setPhase(progress, name, 'done', {
    status: result.status,
    testsPassed: result.testsPassed,
    testsTotal: result.testsTotal,
  });
  return result;
}
