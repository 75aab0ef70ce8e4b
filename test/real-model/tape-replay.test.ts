// A tape recorded from the local model replays at $0 with identical answers: one Hermes scenario with
// the TypeScript example policy on the local model, then the same evaluation again with the first
// run's model-call log as its tape (what `trl eval --tape WORKFLOW-ID` builds: tapeOf), which must
// answer every call from the tape, cost nothing and end as the recording did.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { tapeOf } from '../../cli/commands/eval-command.ts';
import { repoRoot } from '../../common/data-layout.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { loadTape } from '../../gateway/tape/call-tape.ts';
import { startHarness, type Harness } from '../support/evaluation-harness.ts';
import { realModelScenarios } from './local-model-fixture.ts';

const scenarios = realModelScenarios('fix-inventory-bug').slice(0, 1);
const pack = { kind: 'directory' as const, path: path.join(repoRoot, 'policy', 'examples', 'cost-cascade') };

describe('a tape of the local model', () => {
  let harness: Harness;
  let recorded: EvaluationResult;
  let replayed: EvaluationResult;

  before(async () => {
    process.env.TRL_UPSTREAM = 'local-model';
    process.env.TRL_POLICY_REQUEST_TIMEOUT_SEC = '900';
    harness = await startHarness();
    recorded = await harness.evaluate({ pack, agent: 'hermes', scenarios, seed: 1 });
    const { tape } = await tapeOf(recorded.workflowId, scenarios);
    replayed = await harness.evaluate({ pack, agent: 'hermes', scenarios, seed: 1, tape });
  });
  after(async () => {
    await harness?.close();
    delete process.env.TRL_UPSTREAM;
    delete process.env.TRL_POLICY_REQUEST_TIMEOUT_SEC;
  });

  test('the recording is a real run: completed, metered, with model calls', () => {
    assert.equal(recorded.status, 'completed', JSON.stringify(recorded.rejection));
    const scenario = recorded.perScenario[0]!;
    assert.notEqual(scenario.status, 'infra_error', scenario.error);
    assert.ok(scenario.costUsd > 0, `cost ${scenario.costUsd}`);
  });

  test('the replay costs $0, ends as the recording did and its calls answered the same', async () => {
    const why = JSON.stringify({
      stoppedReason: replayed.stoppedReason,
      rejection: replayed.rejection,
      scenarios: replayed.perScenario.map((s) => ({ name: s.name, status: s.status, error: s.error })),
      recorded: recorded.perScenario.map((s) => ({ name: s.name, status: s.status, error: s.error })),
    });
    assert.equal(replayed.status, 'completed', why);
    assert.equal(replayed.costUsd, 0);
    const before = recorded.perScenario[0]!;
    const now = replayed.perScenario[0]!;
    assert.equal(now.costUsd, 0);
    assert.equal(now.status, before.status, now.error);
    assert.equal(now.testsPassed, before.testsPassed);
    const original = loadTape(await readFile(before.artifacts.modelCallLog!.path, 'utf8'));
    const again = loadTape(await readFile(now.artifacts.modelCallLog!.path, 'utf8'));
    assert.ok(original.length >= 1, 'the recording made model calls');
    const answers = (entries: typeof original) => entries.map((e) => ({ ...(e.response as object), usage: undefined }));
    assert.deepEqual(answers(again), answers(original));
  });
});
