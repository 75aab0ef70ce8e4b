// evaluateSubmission: announce → fetch the pack → screen it → pick the scenarios → probe the policy → find what a rerun
// may reuse → run the scenarios (each: workflows/scenario-evaluation.ts) → aggregate. A pack refused on the way ends
// at aggregate with its rejection. Deterministic: all I/O is in activities; only plain JSON crosses the boundary.
import {
  patched,
  setCurrentDetails,
  setHandler,
  upsertMemo,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { ReusedScenario, Submission } from '../contracts/submission.ts';
import { reusableResults } from '../contracts/reuse-key.ts';
import type {
  EvaluationResult,
  PackRef,
  PreEvalResult,
  ProbeResult,
  Rejection,
  ScenarioDescriptor,
  ScenarioResult,
} from '../contracts/results.ts';
import { sandboxTaskQueue, searchAttributes } from '../contracts/temporal-names.ts';
import { progressQuery, type EvaluationProgress, type ScenarioPhase } from '../contracts/progress.ts';
import { packRejectionTypes } from '../contracts/failure-types.ts';
import { isPolicyDriven } from '../contracts/agent-kinds.ts';
import { progressDetails, resultDetails } from './run-metadata.ts';
import { pairedGate } from './paired-gate.ts';
import { summarizeEvaluation } from '../scoring/evaluation-summary.ts';
import { sandboxClaims, sandboxHostQueuesPatch } from './sandbox-host.ts';
import { failureText, probeActivities, quick, screening } from './evaluation-proxies.ts';
import { evaluateScenario, type ScenarioRun } from './scenario-evaluation.ts';
import type { SpendStop } from './scenario-results.ts';

/** Histories from before ran the probe on the evaluation queue (orchestration role); it now runs on a sandbox host. */
export const probeOnSandboxHostsPatch = 'probe-on-sandbox-hosts';

export async function evaluateSubmission(submission: Submission): Promise<EvaluationResult> {
  const progress = announce(submission);
  // The seat's fair pairing: each scenario's run waits for the seat to release it to both sides.
  const gate = pairedGate(submission.pairing);
  // Set by the first scenario a spend ceiling refuses: no further paid scenario starts.
  const spend: SpendStop = {};
  const end = (outcome: Outcome) => aggregate(submission, outcome, progress, spend);

  const fetched = await fetchPack(submission, progress);
  if ('rejection' in fetched) return end({ rejection: fetched.rejection, perScenario: [] });
  const { pack } = fetched;
  const packHash = pack.packHash;
  const screened = await screen(submission, pack, progress);
  if (screened.verdict === 'reject') return end({ packHash, rejection: screened.reasons, perScenario: [] });
  const { spec: scenarioSpec, scenarios } = await pickScenarios(submission);
  const probed = await probe(submission, pack, scenarios, progress);
  if (probed?.verdict === 'reject') return end({ packHash, scenarioSpec, rejection: probed.reasons, perScenario: [] });
  const reusable = await findReusable(submission, packHash, scenarioSpec, scenarios);
  const perScenario = await runScenarios(scenarios, { submission, pack, reusable, gate, progress, spend });
  return end({ packHash, scenarioSpec, perScenario });
}

/** What the evaluation came to, for aggregate: a rejection, or the scenarios' results. */
interface Outcome {
  packHash?: string;
  scenarioSpec?: number | null;
  rejection?: Rejection[];
  perScenario: ScenarioResult[];
}

/** The progress query, and the search attributes and details an operator sees from the start. */
function announce(submission: Submission): EvaluationProgress {
  const progress: EvaluationProgress = { stage: 'fetching', scenarios: [] };
  setHandler(progressQuery, () => progress);
  upsertSearchAttributes([
    { key: searchAttributes.submissionId, value: submission.submissionId },
    { key: searchAttributes.status, value: 'running' },
    ...(submission.hotkey ? [{ key: searchAttributes.hotkey, value: submission.hotkey }] : []),
  ]);
  setCurrentDetails(progressDetails(progress));
  return progress;
}

/** The pack, verified and canonical; or the reason it cannot be had (a pack refused, never retried). */
async function fetchPack(
  submission: Submission,
  progress: EvaluationProgress,
): Promise<{ pack: PackRef } | { rejection: Rejection[] }> {
  let pack: PackRef;
  try {
    pack = await quick.fetchPack(submission.pack);
  } catch (error) {
    const failure = failureText(error);
    if (failure.type && packRejectionTypes.includes(failure.type))
      return { rejection: [{ code: failure.type, message: failure.message }] };
    throw error;
  }
  progress.packHash = pack.packHash;
  upsertSearchAttributes([{ key: searchAttributes.packHash, value: pack.packHash }]);
  upsertMemo({ pack: { hash: pack.packHash, name: pack.name, files: pack.fileCount }, agent: submission.agent });
  return { pack };
}

/** Pre-evaluation: structure, ownership, static scan, similarity, the LLM judge. */
async function screen(submission: Submission, pack: PackRef, progress: EvaluationProgress): Promise<PreEvalResult> {
  progress.stage = 'pre-eval';
  const verdict = await screening.preEval({ pack, hotkey: submission.hotkey, scenariosDir: submission.scenariosDir });
  upsertMemo({ preEval: { verdict: verdict.verdict, report: verdict.report.path } });
  return verdict;
}

/** The scenarios asked for (the active set when none are named) and the spec they belong to. */
function pickScenarios(submission: Submission) {
  return quick.resolveScenarios({ names: submission.scenarios, scenariosDir: submission.scenariosDir });
}

/** The behavioural probe, at $0: the policy in its sandbox on each scenario's opening, a bland upstream answering. */
async function probe(
  submission: Submission,
  pack: PackRef,
  scenarios: ScenarioDescriptor[],
  progress: EvaluationProgress,
): Promise<ProbeResult | undefined> {
  if (!isPolicyDriven(submission.agent) || scenarios.length === 0) return undefined;
  progress.stage = 'probe';
  // On a sandbox host, where the scenario images are, so its tool results are the image's files; histories from
  // before ran it on the evaluation queue and replay so.
  const queue = patched(probeOnSandboxHostsPatch) ? sandboxTaskQueue(workflowInfo().taskQueue) : undefined;
  const probed = await probeActivities(scenarios.length, queue).probePolicy({ pack, scenarios });
  upsertMemo({
    probe: {
      verdict: probed.verdict,
      conversations: probed.conversations,
      report: probed.report.path,
      ...(probed.cached ? { cached: true } : {}),
    },
  });
  return probed;
}

/** A rerun (trl rerun): earlier results it may reuse, only where pack, spec, seed, agent and the scenario's content
 * all match. */
async function findReusable(
  submission: Submission,
  packHash: string,
  scenarioSpec: number | null | undefined,
  scenarios: ScenarioDescriptor[],
): Promise<Map<string, ReusedScenario>> {
  if (!submission.reuse?.length) return new Map();
  const hashes = await quick.hashScenarios({ scenarios });
  return reusableResults(
    submission.reuse,
    { packHash, spec: scenarioSpec ?? null, seed: submission.seed, agent: submission.agent },
    hashes,
  );
}

/** Every scenario at once, each on a sandbox host it claims first; told to the seat when paired. */
async function runScenarios(
  scenarios: ScenarioDescriptor[],
  shared: Omit<ScenarioRun, 'onHosts' | 'claims'>,
): Promise<ScenarioResult[]> {
  const { gate, progress } = shared;
  await gate.ready(scenarios.map((s) => s.name));
  progress.stage = 'scenarios';
  progress.scenarios = scenarios.map((s) => ({ name: s.name, phase: 'queued' as ScenarioPhase }));
  // Histories from before the roles replay without the claim.
  const run: ScenarioRun = {
    ...shared,
    onHosts: patched(sandboxHostQueuesPatch),
    claims: sandboxClaims(workflowInfo().taskQueue),
    claimsTogether: scenarios.length,
    // Paired, a scenario runs only when the seat releases it, in this order: a host that took later ones first
    // would hold them idle at the gate while the released pair waits for room.
    ...(shared.submission.pairing ? { claimRank: new Map(scenarios.map((s, index) => [s.name, index])) } : {}),
  };
  return Promise.all(
    scenarios.map(async (scenario) => {
      const result = await evaluateScenario(run, scenario);
      await gate.leave(scenario.name);
      return result;
    }),
  );
}

/** The result, written by the aggregate activity, and what the Web UI shows of it. */
async function aggregate(
  submission: Submission,
  outcome: Outcome,
  progress: EvaluationProgress,
  spend: SpendStop,
): Promise<EvaluationResult> {
  progress.stage = 'aggregating';
  const summaryInput = {
    submissionId: submission.submissionId,
    workflowId: workflowInfo().workflowId,
    agent: submission.agent,
    ...outcome,
    ...(spend.reason ? { stoppedReason: spend.reason } : {}),
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
  publishResult(result);
  progress.stage = 'done';
  return result;
}

function publishResult(result: EvaluationResult): void {
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
}
