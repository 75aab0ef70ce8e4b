// aggregate: totals computed by the pure summary, with the submission's spend from the ledger
// (retried attempts included) and the identity of the price table charged (hash, official or
// not), written once as the run's result.json.
import type { EvaluationResult } from '../contracts/results.ts';
import { summarizeEvaluation, type SummaryInput } from '../scoring/evaluation-summary.ts';
import { writeArtifact } from '../common/write-artifact.ts';
import { evaluationResultFile } from '../common/data-layout.ts';
import type { ActivityDependencies } from './activity-context.ts';
import { pricingIdentity } from '../gateway/catalog/allowlist.ts';

export function createAggregate(deps: Pick<ActivityDependencies, 'spendLedger' | 'allowlist' | 'budgetCapUsd'>) {
  // This worker's table and cap; every worker of one deployment reads the same configuration.
  const pricing = pricingIdentity(deps.allowlist, deps.budgetCapUsd);
  return async function aggregate(input: SummaryInput): Promise<EvaluationResult> {
    const spend = await deps.spendLedger.totals({ submissionId: input.submissionId });
    const result = { ...summarizeEvaluation(input), ...pricing, ledgerCostUsd: Math.round(spend.settledUsd * 1e6) / 1e6 };
    const resultFile = await writeArtifact(evaluationResultFile(input.workflowId), JSON.stringify(result, null, 2) + '\n');
    return { ...result, resultFile };
  };
}
