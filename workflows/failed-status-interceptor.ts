// An evaluation whose workflow fails (an activity failure it does not turn into a result) leaves
// TrlStatus `failed`, not the `running` it set at its start: `trl runs` and the search attributes
// then say what happened. An interceptor, so the workflow's own code stays as it is.
import {
  isCancellation,
  patched,
  upsertSearchAttributes,
  workflowInfo,
  type WorkflowInterceptorsFactory,
} from '@temporalio/workflow';
import { searchAttributes } from '../contracts/temporal-names.ts';

export const failedStatusPatch = 'trl-failed-status';

export const interceptors: WorkflowInterceptorsFactory = () => ({
  inbound: [
    {
      async execute(input, next) {
        try {
          return await next(input);
        } catch (error) {
          // Patched: histories that failed before this interceptor replay without the upsert.
          if (workflowInfo().workflowType === 'evaluateSubmission' && patched(failedStatusPatch))
            upsertSearchAttributes([
              { key: searchAttributes.status, value: isCancellation(error) ? 'cancelled' : 'failed' },
            ]);
          throw error;
        }
      },
    },
  ],
});
