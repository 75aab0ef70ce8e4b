// The project's workflow bundle for a test file: the run's shared file when `trl test` made one
// (workers/workflow-bundle-file.ts), else built once in this process, as with `node --test FILE`.
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { bundleWorkflows } from '../../workers/create-worker.ts';
import { readWorkflowBundleFile, testWorkflowBundleEnv } from '../../workers/workflow-bundle-file.ts';
import { readSetting } from '../../common/settings/setting.ts';
import { internalSettings } from '../../common/settings/test-settings.ts';

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;

export function projectWorkflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  const file = readSetting(internalSettings, testWorkflowBundleEnv);
  bundle ??= file ? readWorkflowBundleFile(file) : bundleWorkflows();
  return bundle;
}
