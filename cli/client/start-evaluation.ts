// Starting an evaluation from any client (the command line, tests, the seat workflow's caller).
import { Client, WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/client';
import { UsageError } from '../usage-error.ts';
import {
  evaluationSearchAttributes,
  evaluationTaskQueue,
  evaluationWorkflowId,
  type EvaluationRole,
} from '../../contracts/temporal-names.ts';
import { evaluationStaticDetails, evaluationSummary } from '../../workflows/run-metadata.ts';
import { submissionSchema, type Submission, type SubmissionInput } from '../../contracts/submission.ts';
import type { evaluateSubmission } from '../../workflows/evaluate-submission.ts';

export async function startEvaluation(client: Client, input: SubmissionInput, taskQueue = evaluationTaskQueue) {
  const submission = submissionSchema.parse(input);
  const workflowId = evaluationWorkflowId(submission.submissionId);
  try {
    return await startWorkflow(client, submission, workflowId, taskQueue);
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) {
      // An id runs once (REJECT_DUPLICATE): a run's record is never overwritten.
      throw evaluationExists(workflowId);
    }
    throw error;
  }
}

export function evaluationExists(workflowId: string): UsageError {
  return new UsageError(
    `evaluation ${workflowId} already exists and an evaluation id runs once; \`trl rerun ${workflowId}\` runs it again as a new evaluation, reusing its completed scenarios (--scenario NAME or --failed chooses what runs)`,
  );
}

/** Refuses an id that already ran before anything is started for it. */
export async function assertNewEvaluation(client: Client, submissionId: string): Promise<void> {
  const workflowId = evaluationWorkflowId(submissionId);
  const exists = await client.workflow
    .getHandle(workflowId)
    .describe()
    .then(
      () => true,
      () => false,
    );
  if (exists) throw evaluationExists(workflowId);
}

function startWorkflow(client: Client, submission: Submission, workflowId: string, taskQueue: string) {
  // The seat starts its evaluations as child workflows (challenger, incumbent); this client's are local.
  const role: EvaluationRole = 'local';
  return client.workflow.start<typeof evaluateSubmission>('evaluateSubmission', {
    taskQueue,
    workflowId,
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    args: [submission],
    staticSummary: evaluationSummary(submission, role),
    staticDetails: evaluationStaticDetails(submission, role),
    typedSearchAttributes: evaluationSearchAttributes(submission, role),
    memo: {
      submission: {
        pack: submission.pack.kind === 'directory' ? submission.pack.path : submission.pack.url,
        agent: submission.agent,
        scenarios: submission.scenarios.length ? submission.scenarios : 'active set',
        ...(submission.hotkey ? { hotkey: submission.hotkey } : {}),
      },
      ...(submission.rerunOf
        ? { rerun: { of: submission.rerunOf, reusedScenarios: (submission.reuse ?? []).map((r) => r.result.name) } }
        : {}),
    },
  });
}

export function workflowUiUrl(uiUrl: string, namespace: string, workflowId: string): string {
  return `${uiUrl}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}
