// The project's workflow bundle for a test file, once per process: from the bundle cache `trl test` filled before
// the files started (workers/workflow-bundle-cache.ts), else built here, as with `node --test FILE`.
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { bundleWorkflows } from '../../workers/create-worker.ts';

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;

export function projectWorkflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= bundleWorkflows();
  return bundle;
}
