// Tapes: a Hermes run replayed from its recorded model calls reproduces its outcome at $0, and a
// changed policy diverges with a message naming the call and the field.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { EvaluationResult } from '../../contracts/results.ts';
import { tapeOf } from '../../cli/commands/eval-command.ts';
import { loadTape } from '../../gateway/tape/call-tape.ts';
import { startHarness, type Harness } from '../support/evaluation-harness.ts';
import { examplePackDir, writePack } from '../support/fixture-packs.ts';

describe('trl eval --tape', () => {
  let harness: Harness;
  let recorded: EvaluationResult;
  let replayed: EvaluationResult;
  let changed: EvaluationResult;

  before(async () => {
    harness = await startHarness();
    const scenarios = ['csv-sales-report'];
    recorded = await harness.evaluate({
      pack: { kind: 'directory', path: examplePackDir },
      agent: 'hermes',
      scenarios,
    });
    const { tape } = await tapeOf(recorded.workflowId, scenarios);
    // Another policy (glm-5.2 for every call), distinct enough that pre-eval's similarity never
    // takes it for a copy of a pack an earlier test committed.
    const otherPolicy = await writePack({
      'SKILL.md':
        '# tape divergence probe\n\nA policy that is not the recorded one: it sends every request to glm-5.2, so its first call already differs from the tape.\n',
      'policy.ts': [
        "import { definePolicy } from 'trl-policy-sdk';",
        "const reason = 'the tape records another policy; this one always asks glm-5.2, whatever the conversation holds';",
        'export default definePolicy({',
        '  async complete(request, ctx) {',
        '    ctx.log(reason);',
        "    return ctx.call('glm-5.2', request, { maxTokens: 1024 });",
        '  },',
        '});',
        '',
      ].join('\n'),
    });
    [replayed, changed] = await Promise.all([
      harness.evaluate({ pack: { kind: 'directory', path: examplePackDir }, agent: 'hermes', scenarios, tape }),
      harness.evaluate({ pack: { kind: 'directory', path: otherPolicy }, agent: 'hermes', scenarios, tape }),
    ]);
  });
  after(async () => harness?.close());

  test('the replay reproduces the recorded outcome, call for call, at $0', async () => {
    const before = recorded.perScenario[0]!;
    const now = replayed.perScenario[0]!;
    assert.ok(before.costUsd > 0, 'the recording cost something');
    assert.equal(now.status, before.status, now.error);
    assert.equal(now.testsPassed, before.testsPassed);
    assert.equal(now.testsTotal, before.testsTotal);
    assert.equal(now.costUsd, 0);
    assert.equal(replayed.costUsd, 0);
    const original = loadTape(await readFile(before.artifacts.modelCallLog!.path, 'utf8'));
    const again = loadTape(await readFile(now.artifacts.modelCallLog!.path, 'utf8'));
    assert.deepEqual(
      again.map((e) => e.fingerprint),
      original.map((e) => e.fingerprint),
    );
    // The same answers; only the usage is zeroed (what makes a tape call cost $0).
    const withoutUsage = (response: unknown) => ({ ...(response as object), usage: undefined });
    assert.deepEqual(
      again.map((e) => withoutUsage(e.response)),
      original.map((e) => withoutUsage(e.response)),
    );
    assert.ok(
      again.every((e) => (e.response as { usage?: { completion_tokens?: number } }).usage?.completion_tokens === 0),
    );
  });

  test('a changed policy stops at its first unrecorded call, naming the call and the field', () => {
    assert.notEqual(changed.status, 'rejected', JSON.stringify(changed.rejection));
    const scenario = changed.perScenario[0]!;
    assert.equal(scenario.status, 'infra_error');
    assert.match(
      scenario.error ?? '',
      /tape diverged at call 1 \(recorded as req-1\): model was "[^"]+", now "glm-5\.2"/,
    );
    assert.equal(scenario.costUsd, 0);
  });
});
