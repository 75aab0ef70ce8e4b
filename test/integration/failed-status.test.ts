// A failed evaluation workflow does not stay TrlStatus=running: the interceptor
// (workflows/failed-status-interceptor.ts) sets `failed` when the workflow fails.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { evaluationWorkflowId, searchAttributes } from '../../contracts/temporal-names.ts';
import { startHarness, uniqueId, type Harness } from '../support/evaluation-harness.ts';
import { examplePackDir } from '../support/fixture-packs.ts';

describe('a failed evaluation workflow', () => {
  let harness: Harness;
  let empty: string;
  before(async () => {
    harness = await startHarness();
    empty = await mkdtemp(path.join(tmpdir(), 'trl-no-tasks-'));
  });
  after(async () => {
    await harness?.close();
    if (empty) await rm(empty, { recursive: true, force: true });
  });

  test('ends with TrlStatus failed, not running', async () => {
    const submissionId = uniqueId('failed-status');
    // A scenarios directory with no task in it: resolveScenarios fails and nothing turns that into a result.
    await assert.rejects(
      harness.evaluate({
        submissionId,
        pack: { kind: 'directory', path: examplePackDir },
        agent: 'oracle',
        scenariosDir: empty,
      }),
    );
    const description = await harness.client.workflow.getHandle(evaluationWorkflowId(submissionId)).describe();
    assert.equal(description.status.name, 'FAILED');
    assert.equal(description.typedSearchAttributes.get(searchAttributes.status), 'failed');
  });
});
