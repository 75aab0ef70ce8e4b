// Starting an evaluation from any client (the command line, tests, the seat workflow's caller).
import { Client, WorkflowIdReusePolicy } from '@temporalio/client';
import { evaluationTaskQueue, evaluationWorkflowId, searchAttributes } from '../../contracts/temporal-names.ts';
import { submissionSchema, type SubmissionInput } from '../../contracts/submission.ts';
import type { evaluateSubmission } from '../../workflows/evaluate-submission.ts';

export async function startEvaluation(client: Client, input: SubmissionInput, taskQueue = evaluationTaskQueue) {
  const submission = submissionSchema.parse(input);
  return client.workflow.start<typeof evaluateSubmission>('evaluateSubmission', {
    taskQueue,
    workflowId: evaluationWorkflowId(submission.submissionId),
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    args: [submission],
    typedSearchAttributes: [
      { key: searchAttributes.submissionId, value: submission.submissionId },
      { key: searchAttributes.status, value: 'queued' },
      ...(submission.hotkey ? [{ key: searchAttributes.hotkey, value: submission.hotkey }] : []),
    ],
    memo: {
      submission: {
        pack: submission.pack.kind === 'directory' ? submission.pack.path : submission.pack.url,
        agent: submission.agent,
        scenarios: submission.scenarios.length ? submission.scenarios : 'active set',
        ...(submission.hotkey ? { hotkey: submission.hotkey } : {}),
      },
    },
  });
}

export function workflowUiUrl(uiUrl: string, namespace: string, workflowId: string): string {
  return `${uiUrl}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}
