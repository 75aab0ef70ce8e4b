// `trl replay`: a real run replays cleanly against today's workflow code, and a workflow change that
// adds an activity call is flagged as non-deterministic with the event it broke on.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../common/data-layout.ts';
import { evaluationWorkflowId } from '../../contracts/temporal-names.ts';
import { bundleWorkflows } from '../../workers/create-worker.ts';
import { historyOf, replayHistories } from '../../cli/client/replay-runs.ts';
import { startHarness, uniqueId, type Harness } from '../support/evaluation-harness.ts';
import { examplePackDir } from '../support/fixture-packs.ts';

const run = promisify(execFile);

async function trl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', path.join(repoRoot, 'cli', 'main.ts'), ...args],
      { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Today's evaluateSubmission with one activity call added before it: a change that breaks old histories. */
function variantSource(): string {
  const from = (file: string) => JSON.stringify(path.join(repoRoot, file));
  return `import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from ${from('activities/index.ts')};
import type { Submission } from ${from('contracts/submission.ts')};
import { evaluateSubmission as current } from ${from('workflows/evaluate-submission.ts')};
export async function evaluateSubmission(submission: Submission) {
  await proxyActivities<Activities>({ startToCloseTimeout: '1 minute' }).resolveScenarios({ names: [] });
  return current(submission);
}
`;
}

describe('trl replay', () => {
  let harness: Harness;
  let variantDir: string;
  let variantFile: string;
  const submissionId = uniqueId('replay');
  const workflowId = evaluationWorkflowId(submissionId);

  before(async () => {
    harness = await startHarness();
    await harness.evaluate({
      submissionId,
      pack: { kind: 'directory', path: examplePackDir },
      agent: 'null',
      scenarios: ['csv-sales-report'],
    });
    // Inside the repository so the bundler finds node_modules; tsconfig.json and the lint skip .replay-*,
    // which may run while it exists.
    variantDir = await mkdtemp(path.join(repoRoot, '.replay-variant-'));
    variantFile = path.join(variantDir, 'index.ts');
    await writeFile(variantFile, variantSource());
  });
  after(async () => {
    if (variantDir) await rm(variantDir, { recursive: true, force: true });
    await harness?.close();
  });

  test('a real run replays cleanly against the current workflow code', async () => {
    const [outcome] = await replayHistories(harness.bundle, [await historyOf(harness.client, workflowId)]);
    assert.deepEqual({ clean: outcome?.clean, workflowId: outcome?.workflowId }, { clean: true, workflowId });
  });

  test('an added activity call is flagged as non-determinism, with the event it broke on', async () => {
    const bundle = await bundleWorkflows(variantFile);
    const [outcome] = await replayHistories(bundle, [await historyOf(harness.client, workflowId)]);
    assert.equal(outcome?.clean, false);
    assert.equal(outcome?.kind, 'nondeterminism', outcome?.message);
    assert.ok(outcome?.eventId !== undefined && outcome.eventId > 0, `no event id in: ${outcome?.message}`);
  });

  test('the command: exit 0 and "replays cleanly"; exit 1 naming the event; exit 64 for an unknown id', async () => {
    const clean = await trl(['replay', workflowId]);
    assert.equal(clean.code, 0, clean.stderr);
    assert.match(clean.stdout, new RegExp(`${workflowId}: replays cleanly`));

    const broken = await trl(['replay', workflowId, '--workflows', variantFile]);
    assert.equal(broken.code, 1, broken.stderr);
    assert.match(broken.stdout, /non-deterministic at event \d+/);

    const unknown = await trl(['replay', uniqueId('no-such-run')]);
    assert.equal(unknown.code, 64);
    assert.match(unknown.stderr, /no workflow .* in Temporal/);
  });
});
