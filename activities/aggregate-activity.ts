// aggregate: totals computed by the pure summary, with the submission's spend from the ledger
// (retried attempts included) and the identity of the price table charged (hash, official or
// not) and the spec manifest it ran under, written once as the run's result.json.
import type { EvaluationResult } from '../contracts/results.ts';
import { summarizeEvaluation, type SummaryInput } from '../scoring/evaluation-summary.ts';
import { writeArtifact } from '../common/write-artifact.ts';
import { evaluationResultFile } from '../common/data-layout.ts';
import type { ActivityDependencies } from './activity-context.ts';
import { pricingIdentity } from '../gateway/catalog/allowlist.ts';
import { gatherSpecManifest } from './spec-manifest-activity.ts';
import { recordScenarioResult } from '../common/metrics.ts';

export function createAggregate(
  deps: Pick<
    ActivityDependencies,
    'spendLedger' | 'allowlist' | 'budgetCapUsd' | 'docker' | 'baseImageTag' | 'policyImage' | 'sidecarImage'
  >,
) {
  // This worker's table and cap; every worker of one deployment reads the same configuration.
  const pricing = pricingIdentity(deps.allowlist, deps.budgetCapUsd);
  return async function aggregate(input: SummaryInput): Promise<EvaluationResult> {
    const spend = await deps.spendLedger.totals({ submissionId: input.submissionId });
    // Rejected before any scenario ran: no contest was run, so no manifest is claimed.
    const manifest = input.perScenario.length
      ? await gatherSpecManifest(deps, { ...input, pricing, capUsd: deps.budgetCapUsd })
      : {};
    const result = {
      ...summarizeEvaluation(input),
      ...pricing,
      ...manifest,
      ledgerCostUsd: Math.round(spend.settledUsd * 1e6) / 1e6,
    };
    const resultFile = await writeArtifact(
      evaluationResultFile(input.workflowId),
      JSON.stringify(result, null, 2) + '\n',
    );
    // Counted once per run of a scenario: a rerun's reused results were counted by their own run.
    for (const scenario of result.perScenario) if (!scenario.reusedFrom) recordScenarioResult(scenario.status);
    return { ...result, resultFile };
  };
}
