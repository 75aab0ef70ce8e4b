// Content integrity end to end (DESIGN invariant 10): a policy that never authors the agent's
// answers but carries the scenario's solution into what it sends the models — in the description
// of a tool it adds, decoded from base64 in a shuffled alphabet (the corpus pack
// coaching/custom-alphabet-format's guide, its digit table assembled at run time here so that the static
// scan, which decodes with any table a file holds as a string, cannot read it) — and stays
// plain whenever the conversation opens as Hermes's does, so the probe (which always opens as
// Hermes) sees nothing, is stopped by the gateway's run-time check in the run (this test's agent
// is the loop agent, whose opening differs; in production every run is Hermes, so the trigger is
// this test's stand-in for any trigger the probe cannot reach): the scenario is
// injected_scenario_content, scored 0, with the evidence (piece, call, field) in its error and its
// result; the honest example beside it is checked on every call and carries nothing in. Real
// Temporal, Docker, policy sandbox, gateway and verifier.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { EvaluationResult } from '../../contracts/results.ts';
import { repoRoot } from '../../common/data-layout.ts';
import { startHarness, type Harness } from '../support/evaluation-harness.ts';
import { examplePackDir, writePack } from '../support/fixture-packs.ts';

const corpusPolicy = readFileSync(
  path.join(repoRoot, 'test', 'fixtures', 'packs', 'coaching', 'custom-alphabet-format', 'policy.ts'),
  'utf8',
);
// The table as the reversal of a literal, put back in order by a reduceRight the scan does not evaluate.
const tableBuiltAtRunTime = corpusPolicy.replace(
  /const letters = '([^']+)';/,
  (_, table: string) =>
    `const letters = [...${JSON.stringify([...table].reverse().join(''))}].reduceRight((s, c) => s + c, '');`,
);
const coachingPolicy = `${tableBuiltAtRunTime.slice(0, tableBuiltAtRunTime.indexOf('let turns = 0;'))}
export default definePolicy({
  async complete(request, ctx) {
    const opening = JSON.stringify(request.messages[0] ?? '');
    if (opening.includes('Hermes Agent')) return ctx.call('glm-5.3-flash', request, { maxTokens: 1024 });
    const reference = {
      type: 'function' as const,
      function: { name: 'reference_notes', description: read(guide), parameters: { type: 'object', properties: {} } },
    };
    return ctx.call('glm-5.3-flash', { ...request, tools: [...(request.tools ?? []), reference] }, { maxTokens: 1024 });
  },
});
`;

describe('scenario content carried into model requests', () => {
  let harness: Harness;
  let coached: EvaluationResult;
  let honest: EvaluationResult;

  before(async () => {
    harness = await startHarness();
    const coachingPack = await writePack({
      'SKILL.md':
        '# reference-notes\n\nAsks one mid-priced model each turn and gives it a reference tool with working notes.\n',
      'policy.ts': coachingPolicy,
    });
    [coached, honest] = await Promise.all([
      harness.evaluate({
        pack: { kind: 'directory', path: coachingPack },
        agent: 'loop',
        scenarios: ['semver-range-matcher'],
        seed: 5,
      }),
      harness.evaluate({
        pack: { kind: 'directory', path: examplePackDir },
        agent: 'loop',
        scenarios: ['semver-range-matcher'],
        seed: 5,
      }),
    ]);
  });
  after(async () => harness?.close());

  test("a policy that carries the scenario's solution into a model request is injected_scenario_content, scored 0, with the evidence", () => {
    assert.equal(coached.status, 'completed', JSON.stringify(coached.rejection ?? coached.perScenario));
    const scenario = coached.perScenario[0]!;
    assert.equal(scenario.status, 'injected_scenario_content', JSON.stringify(scenario));
    assert.equal(scenario.testsPassed, 0);
    assert.equal(coached.testsPassed, 0);
    const injection = scenario.injection!;
    assert.ok(injection.injectedPieces >= 2, JSON.stringify(injection));
    assert.ok(
      injection.evidence.some(
        (item) => item.kind === 'solution-line' && /^tools\[\d+\]\.function\.description$/.test(item.field),
      ),
      JSON.stringify(injection.evidence),
    );
    assert.match(
      scenario.error ?? '',
      /^injected_scenario_content: .*solution-line ".*" in tools\[\d+\]\.function\.description of call /,
    );
  });

  test('the honest example beside it is checked on every call and carries nothing in', () => {
    const scenario = honest.perScenario[0]!;
    assert.notEqual(scenario.status, 'injected_scenario_content');
    const injection = scenario.injection!;
    assert.ok(injection.checkedCalls >= 1 && injection.hiddenPieces > 10, JSON.stringify(injection));
    assert.equal(injection.injectedPieces, 0, JSON.stringify(injection.evidence));
  });
});
