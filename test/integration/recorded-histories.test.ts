// Histories recorded from real runs of the suite (test/fixtures/histories/, its README says which) replay against
// today's workflow code: a change to evaluateSubmission, seat or seatCycle that runs in flight could not survive fails
// here, before it is deployed. No server: the replay runs the workflow bundle over the recorded events.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { repoRoot } from '../../common/data-layout.ts';
import { replayHistories } from '../../cli/client/replay-runs.ts';
import { projectWorkflowBundle } from '../support/shared-workflow-bundle.ts';
import { historyFromJson } from '../support/history-json.ts';
import { installQuietRuntime } from '../../workers/quiet-runtime.ts';

const historiesDir = path.join(repoRoot, 'test', 'fixtures', 'histories');
const suffix = '.json.gz';

/** `<workflow type>--<what it covers>.json.gz`: the gzipped JSON of `temporal workflow show --output json`. */
async function recorded() {
  const files = (await readdir(historiesDir)).filter((name) => name.endsWith(suffix)).sort();
  return Promise.all(
    files.map(async (name) => ({
      workflowId: name.slice(0, -suffix.length),
      history: historyFromJson(JSON.parse(gunzipSync(await readFile(path.join(historiesDir, name))).toString('utf8'))),
    })),
  );
}

describe('recorded histories', () => {
  test('every recorded run of evaluateSubmission, seat and seatCycle replays against the current workflow code', async () => {
    installQuietRuntime(); // the replay worker's state changes are not news
    const histories = await recorded();
    const types = new Set(histories.map((h) => h.workflowId.split('--')[0]));
    assert.deepEqual([...types].sort(), ['evaluateSubmission', 'seat', 'seatCycle']);
    const outcomes = await replayHistories(await projectWorkflowBundle(), histories);
    assert.equal(outcomes.length, histories.length);
    const broken = outcomes
      .filter((o) => !o.clean)
      .map((o) => `${o.workflowId}: ${o.kind} at ${o.eventId}: ${o.message}`);
    assert.deepEqual(broken, []);
  });
});
