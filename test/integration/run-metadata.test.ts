// What an operator sees in the Temporal UI, read from the real server: every activity's summary in
// the history's user metadata, the workflow's static summary and details, its current details
// ending in the outcome table, the search attributes, and the spec manifest on the result.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { evaluationWorkflowId, searchAttributes } from '../../contracts/temporal-names.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { specManifestSchema } from '../../contracts/spec-manifest.ts';
import { specManifestHash } from '../../catalog/spec-manifest.ts';
import { startHarness, uniqueId, type Harness } from '../support/evaluation-harness.ts';
import { examplePackDir } from '../support/fixture-packs.ts';

const scenarios = ['csv-sales-report', 'newton-root-solver'];

function summaryOf(event: temporal.api.history.v1.IHistoryEvent): string | undefined {
  const payload = event.userMetadata?.summary;
  return payload ? defaultPayloadConverter.fromPayload<string>(payload) : undefined;
}

describe('run metadata in the Temporal UI', () => {
  let harness: Harness;
  let result: EvaluationResult;
  const submissionId = uniqueId('metadata');
  const workflowId = evaluationWorkflowId(submissionId);

  before(async () => {
    harness = await startHarness();
    result = await harness.evaluate({
      submissionId,
      pack: { kind: 'directory', path: examplePackDir },
      agent: 'oracle',
      scenarios,
    });
  });
  after(async () => harness?.close());

  test('every scheduled activity carries a summary naming what it works on', async () => {
    const history = await harness.client.workflow.getHandle(workflowId).fetchHistory();
    const scheduled = (history.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes);
    assert.ok(scheduled.length >= 2 + scenarios.length * 3, `only ${scheduled.length} activities scheduled`);
    const summaries = scheduled.map((e) => ({
      type: e.activityTaskScheduledEventAttributes!.activityType!.name!,
      summary: summaryOf(e),
    }));
    for (const { type, summary } of summaries) assert.ok(summary, `${type} has no summary`);
    const texts = summaries.map((s) => s.summary);
    for (const name of scenarios) {
      for (const activity of ['prepareScenario', 'runScenario', 'verifyScenario']) {
        assert.ok(
          summaries.some((s) => s.type === activity && s.summary === name),
          `no ${activity} summarized "${name}" in ${texts.join(' | ')}`,
        );
      }
    }
    assert.ok(texts.includes('single-model'), texts.join(' | '));
    assert.ok(
      texts.includes(`pack ${result.packHash!.slice(0, 12)} · ${scenarios.length} scenarios`),
      texts.join(' | '),
    );
  });

  test('the workflow has a static summary and details of what was asked', async () => {
    const description = await harness.client.workflow.getHandle(workflowId).describe();
    assert.equal(await description.staticSummary(), 'local · pack single-model · local · oracle');
    const details = await description.staticDetails();
    assert.match(details ?? '', /\| scenarios \| csv-sales-report, newton-root-solver \|/);
    assert.match(details ?? '', /\| role \| local \|/);
  });

  test('its current details end as a markdown table of the outcome', async () => {
    const metadata = await harness.client.workflow
      .getHandle(workflowId)
      .query<{ currentDetails?: string }>('__temporal_workflow_metadata');
    const details = metadata.currentDetails ?? '';
    assert.match(
      details,
      new RegExp(`^\\*\\*completed\\*\\* · ${result.testsPassed} of ${result.testsTotal} tests passed`),
    );
    const lines = details.split('\n');
    const rows = lines.slice(-scenarios.length);
    assert.deepEqual(
      rows.map((r) => r.split('|')[1]!.trim()),
      [...scenarios].sort(),
    );
    for (const row of rows) assert.match(row, /\| completed \| (\d+)\/\1 \| \$0\.0000 \|$/);
  });

  test('search attributes: role, cost, spec hash', async () => {
    const attributes = (await harness.client.workflow.getHandle(workflowId).describe()).typedSearchAttributes;
    assert.equal(attributes.get(searchAttributes.role), 'local');
    assert.equal(attributes.get(searchAttributes.costUsd), 0);
    assert.equal(attributes.get(searchAttributes.specHash), result.manifestHash);
    assert.equal(attributes.get(searchAttributes.spec), undefined, 'a named subset has no spec number');
    const listed = [];
    for await (const execution of harness.client.workflow.list({
      query: `${searchAttributes.specHash.name} = '${result.manifestHash}' AND ${searchAttributes.role.name} = 'local'`,
    }))
      listed.push(execution.workflowId);
    assert.ok(listed.includes(workflowId), `the spec hash query found ${listed.join(', ')}`);
  });

  test('the result carries its spec manifest, whose hash it states', () => {
    const manifest = specManifestSchema.parse(result.specManifest);
    assert.equal(specManifestHash(manifest), result.manifestHash);
    assert.deepEqual(
      manifest.scenarios.map((s) => s.name),
      [...scenarios].sort(),
    );
    for (const s of manifest.scenarios)
      assert.equal(s.contentHash, result.perScenario.find((p) => p.name === s.name)?.scenarioHash);
    assert.match(manifest.images.base ?? '', /^sha256:[0-9a-f]{64}$/);
    assert.deepEqual(manifest.agent, { name: 'oracle', version: 'builtin' });
    assert.equal(manifest.priceTableHash, result.priceTableHash);
    assert.equal(manifest.decision, null);
  });

  test('the history with its metadata replays without determinism errors', async () => {
    const history = await harness.client.workflow.getHandle(workflowId).fetchHistory();
    await Worker.runReplayHistory({ workflowBundle: harness.bundle }, history, workflowId);
  });
});
