// The suite leaves the user's Temporal alone: `trl test` gives its files a namespace of their own
// (TRL_TEST_TEMPORAL_NAMESPACE, created by the suite), so a test workflow is listed there and never in
// `default`, where `trl up`'s Web UI and `trl runs` look, and it keeps them a day, not a month. A file run outside
// `trl test` fails here.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@temporalio/client';
import { startHarness, uniqueId, type Harness } from '../support/evaluation-harness.ts';
import { temporalEndpoint } from '../../infra/temporal-server.ts';
import { readSetting } from '../../common/settings/setting.ts';
import { testRunnerSettings } from '../../common/settings/test-settings.ts';
import { defaultNamespace } from '../../contracts/temporal-names.ts';

const listedTimeoutMs = 30_000;

describe("test workflows run in the suite's own namespace", () => {
  let harness: Harness;
  const workflowId = uniqueId('namespace-probe');

  before(async () => {
    harness = await startHarness({ withWorker: false });
  });

  after(async () => {
    await harness?.client.workflow
      .getHandle(workflowId)
      .terminate('test finished')
      .catch(() => undefined);
    await harness?.close();
  });

  test('every reader of the setting gets the test namespace, not default', () => {
    const wanted = readSetting(testRunnerSettings, 'TRL_TEST_TEMPORAL_NAMESPACE');
    assert.notEqual(wanted, defaultNamespace);
    assert.equal(temporalEndpoint().namespace, wanted);
    assert.equal(harness.namespace, wanted);
    assert.equal(harness.client.options.namespace, wanted);
  });

  test("the suite's closed runs are kept a day, not the 30 days of a namespace created for real runs", async () => {
    const described = await harness.client.connection.workflowService.describeNamespace({
      namespace: harness.namespace,
    });
    assert.equal(Number(described.config?.workflowExecutionRetentionTtl?.seconds), 24 * 3600);
  });

  test('a workflow a test starts is listed in the test namespace and not in default', async () => {
    // No worker polls this queue: the workflow stays open, visible, and does nothing.
    const taskQueue = uniqueId('trl-namespace');
    await harness.client.workflow.start('evaluation', { workflowId, taskQueue, args: [] });
    const query = `WorkflowId = "${workflowId}"`;
    const count = async (client: Client) => {
      let n = 0;
      for await (const _ of client.workflow.list({ query })) n++;
      return n;
    };
    const deadline = performance.now() + listedTimeoutMs;
    while ((await count(harness.client)) === 0) {
      assert.ok(performance.now() < deadline, `${workflowId} never listed in ${harness.namespace}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const user = new Client({ connection: harness.client.connection, namespace: defaultNamespace });
    assert.equal(await count(user), 0, `a test workflow was listed in ${defaultNamespace}`);
  });
});
