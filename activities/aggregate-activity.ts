// aggregate: totals computed by the pure summary, written once as the run's result.json.
import type { EvaluationResult } from '../contracts/results.ts';
import { summarizeEvaluation, type SummaryInput } from '../scoring/evaluation-summary.ts';
import { writeArtifact } from '../artifacts/write-artifact.ts';
import { evaluationResultFile } from '../artifacts/layout.ts';

export async function aggregate(input: SummaryInput): Promise<EvaluationResult> {
  const result = summarizeEvaluation(input);
  const resultFile = await writeArtifact(evaluationResultFile(input.workflowId), JSON.stringify(result, null, 2) + '\n');
  return { ...result, resultFile };
}
