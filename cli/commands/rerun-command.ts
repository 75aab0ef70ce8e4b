// `trl rerun <workflow-id> [--scenario NAME]… [--failed]`: a new evaluation linked to the original
// (memo `rerun`, search attribute TrlRerunOf) that reuses the original's completed scenario results
// and runs only the chosen ones; the combined result is a normal evaluation result.
import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { submissionSchema, type Submission } from '../../contracts/submission.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { planRerun, rerunSubmissionId, type RerunPlan } from '../client/rerun-plan.ts';
import { loadEvaluationResult } from './show-command.ts';
import { runEvaluation } from './eval-command.ts';
import { connectTemporal } from '../temporal-connection.ts';
import { UsageError } from '../usage-error.ts';

/** The input an evaluation was started with, read from the first event of its history. */
export async function originalSubmission(client: Client, workflowId: string): Promise<Submission> {
  let history;
  try {
    history = await client.workflow.getHandle(workflowId).fetchHistory();
  } catch (error) {
    if ((error as { code?: number }).code === 5 || (error as Error).name === 'WorkflowNotFoundError')
      throw new UsageError(`no workflow "${workflowId}" in Temporal; \`trl runs\` lists evaluations`);
    throw error;
  }
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  if (started?.workflowType?.name !== 'evaluateSubmission')
    throw new UsageError(
      `${workflowId} is not an evaluation (workflow type ${started?.workflowType?.name ?? 'unknown'})`,
    );
  const payload = started.input?.payloads?.[0];
  if (!payload) throw new UsageError(`${workflowId} has no recorded input`);
  return submissionSchema.parse(defaultPayloadConverter.fromPayload(payload));
}

export async function planFor(
  client: Client,
  workflowId: string,
  choice: { scenarios: string[]; failed: boolean },
): Promise<RerunPlan> {
  const submission = await originalSubmission(client, workflowId);
  const { result } = await loadEvaluationResult(workflowId);
  return planRerun(
    { workflowId, submission, result },
    choice,
    rerunSubmissionId(submission.submissionId, new Date(), randomBytes(3).toString('hex')),
  );
}

export function describeReuse(result: EvaluationResult): string {
  const reused = result.perScenario.filter((s) => s.reusedFrom).map((s) => s.name);
  const ran = result.perScenario.filter((s) => !s.reusedFrom).map((s) => s.name);
  return `reused ${reused.length} scenario result(s)${reused.length ? ` (${reused.join(', ')})` : ''}; ran ${ran.length}${ran.length ? ` (${ran.join(', ')})` : ''}`;
}

export async function rerunCommand(options: {
  workflowId: string;
  scenarios: string[];
  failed: boolean;
  json: boolean;
}): Promise<number> {
  const { client, connection } = await connectTemporal();
  let plan: RerunPlan;
  try {
    plan = await planFor(client, options.workflowId, options);
  } finally {
    await connection.close();
  }
  if (!options.json) {
    process.stderr.write(
      `trl: rerun of ${options.workflowId}: running ${plan.run.join(', ') || 'nothing'}; offering ${plan.reused.length} earlier result(s) for reuse\n`,
    );
    if (plan.noHash.length)
      process.stderr.write(`trl: run again, no content hash recorded for them: ${plan.noHash.join(', ')}\n`);
  }
  return runEvaluation(plan.input, {
    json: options.json,
    label: `a rerun of ${options.workflowId}`,
    after: describeReuse,
  });
}
