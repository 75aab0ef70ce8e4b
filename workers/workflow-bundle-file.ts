// A workflow bundle kept in a file, for processes that run the same workflows/ one after another:
// `trl test` bundles once (about 5 s of CPU) and names the file in TRL_TEST_WORKFLOW_BUNDLE for its
// test files, which would otherwise each check the bundle cache (workflow-bundle-cache.ts). Only the tests read the
// variable: a worker always runs the code beside it (from the cache only while every module of it is unchanged).
import { readFile, writeFile } from 'node:fs/promises';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { bundleWorkflows } from './create-worker.ts';

export const testWorkflowBundleEnv = 'TRL_TEST_WORKFLOW_BUNDLE' as const;

/** Bundles workflows/ into `file`. */
export async function writeWorkflowBundleFile(file: string): Promise<void> {
  await writeFile(file, JSON.stringify(await bundleWorkflows()));
}

export async function readWorkflowBundleFile(file: string): Promise<WorkflowBundleWithSourceMap> {
  const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<WorkflowBundleWithSourceMap>;
  if (typeof parsed.code !== 'string' || parsed.code.length === 0)
    throw new Error(`${file} holds no workflow code: unset ${testWorkflowBundleEnv} to bundle in the process`);
  return { code: parsed.code, sourceMap: parsed.sourceMap ?? '' };
}
