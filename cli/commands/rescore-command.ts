// `trl rescore <workflow-id> [--scenario NAME]…`: today's verifiers, in fresh containers, over the
// stored agent outputs of a run (no model call); a new evaluation linked to the original, printed
// with the old and new counts side by side.
import { randomBytes } from 'node:crypto';
import type { EvaluationResult, ScenarioResult } from '../../contracts/results.ts';
import { planRescore, rerunSubmissionId } from '../client/rerun-plan.ts';
import { loadEvaluationResult } from './show-command.ts';
import { originalSubmission } from './rerun-command.ts';
import { runEvaluation } from './eval-command.ts';
import { renderTable } from '../render-table.ts';
import { connectTemporal } from '../temporal-connection.ts';

interface Comparison {
  name: string;
  before?: ScenarioResult;
  after: ScenarioResult;
  how: string;
}

export function renderComparison(
  original: EvaluationResult,
  rescored: EvaluationResult,
  rescoredNames: readonly string[],
): string {
  const rows: Comparison[] = rescored.perScenario.map((after) => ({
    name: after.name,
    before: original.perScenario.find((s) => s.name === after.name),
    after,
    how: rescoredNames.includes(after.name) ? 'rescored' : after.reusedFrom ? 'reused' : 'ran again',
  }));
  const counts = (s?: { testsPassed: number; testsTotal: number }) => (s ? `${s.testsPassed}/${s.testsTotal}` : '—');
  const delta = (row: { before?: { testsPassed: number }; after: { testsPassed: number } }) => {
    const change = row.after.testsPassed - (row.before?.testsPassed ?? 0);
    return change === 0 ? '0' : change > 0 ? `+${change}` : String(change);
  };
  const total = {
    name: 'total',
    before: original as unknown as ScenarioResult,
    after: rescored as unknown as ScenarioResult,
    how: '',
  };
  return renderTable<Comparison>(
    [
      { header: 'scenario', value: (r) => r.name },
      { header: 'how', value: (r) => r.how },
      { header: 'before', value: (r) => counts(r.before), align: 'right' },
      { header: 'now', value: (r) => counts(r.after), align: 'right' },
      { header: 'Δ', value: delta, align: 'right' },
      { header: 'status now', value: (r) => (r.name === 'total' ? rescored.status : r.after.status) },
    ],
    rows,
    total,
  );
}

export async function rescoreCommand(options: {
  workflowId: string;
  scenarios: string[];
  json: boolean;
}): Promise<number> {
  const { client, connection } = await connectTemporal();
  let plan;
  let original: EvaluationResult;
  try {
    const submission = await originalSubmission(client, options.workflowId);
    original = (await loadEvaluationResult(options.workflowId)).result;
    const id = rerunSubmissionId(submission.submissionId, new Date(), randomBytes(3).toString('hex'), 'rescore');
    plan = planRescore({ workflowId: options.workflowId, submission, result: original }, options.scenarios, id);
  } finally {
    await connection.close();
  }
  if (!options.json) {
    process.stderr.write(
      `trl: rescoring ${plan.rescored.join(', ') || 'nothing'} of ${options.workflowId} with today's verifiers (no model call)\n`,
    );
    if (plan.run.length)
      process.stderr.write(`trl: no verdict to rescore, these run again (agent included): ${plan.run.join(', ')}\n`);
  }
  const rescored = plan.rescored;
  return runEvaluation(plan.input, {
    json: options.json,
    label: `a rescore of ${options.workflowId}`,
    after: (result) => renderComparison(original, result, rescored),
  });
}
