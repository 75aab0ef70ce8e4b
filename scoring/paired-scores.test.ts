import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScoredEvaluation } from '../contracts/seat.ts';
import { pairScenarios, type PairingInput } from './paired-scores.ts';

function evaluation(
  packHash: string,
  passed: Record<string, number>,
  overrides: Partial<ScoredEvaluation> = {},
): ScoredEvaluation {
  const perScenario = Object.entries(passed).map(([scenario, testsPassed]) => ({
    scenario,
    testsPassed,
    testsTotal: 10,
  }));
  return {
    packHash,
    workflowId: `eval-${packHash}`,
    status: 'completed',
    testsPassed: perScenario.reduce((sum, score) => sum + score.testsPassed, 0),
    testsTotal: perScenario.length * 10,
    perScenario,
    ...overrides,
  };
}

function input(incumbent: ScoredEvaluation[], challenger: ScoredEvaluation[]): PairingInput {
  return { incumbentPackHash: 'inc', challengerPackHash: 'cha', incumbent, challenger };
}

function failure(pairing: ReturnType<typeof pairScenarios>): string {
  assert.equal(pairing.ok, false);
  return (pairing as { reason: string }).reason;
}

test('means over repeats, paired by scenario name and sorted by it', () => {
  const pairing = pairScenarios(
    input(
      [evaluation('inc', { b: 6, a: 9 }), evaluation('inc', { a: 10, b: 5 })],
      [evaluation('cha', { a: 7, b: 8 }), evaluation('cha', { b: 9, a: 7 })],
    ),
  );
  assert.ok(pairing.ok);
  assert.equal(pairing.repeats, 2);
  assert.deepEqual(pairing.scenarios, [
    { scenario: 'a', testsTotal: 10, incumbent: 9.5, challenger: 7, difference: -2.5 },
    { scenario: 'b', testsTotal: 10, incumbent: 5.5, challenger: 8.5, difference: 3 },
  ]);
  assert.deepEqual(pairing.excludedScenarios, []);
});

test('a scenario missing from any evaluation is left out and named', () => {
  const pairing = pairScenarios(
    input([evaluation('inc', { a: 9, b: 6, c: 3 })], [evaluation('cha', { a: 7, c: 8, d: 1 })]),
  );
  assert.ok(pairing.ok);
  assert.deepEqual(
    pairing.scenarios.map((scenario) => scenario.scenario),
    ['a', 'c'],
  );
  assert.deepEqual(pairing.excludedScenarios, ['b', 'd']);
});

test('incomplete or rejected evaluations are refused, naming the side and repeat', () => {
  assert.match(
    failure(
      pairScenarios(
        input(
          [evaluation('inc', { a: 1 }), evaluation('inc', { a: 1 }, { status: 'incomplete', workflowId: 'wf-7' })],
          [evaluation('cha', { a: 1 }), evaluation('cha', { a: 1 })],
        ),
      ),
    ),
    /incumbent repeat 2 \(workflow wf-7\) is incomplete/,
  );
  assert.match(
    failure(pairScenarios(input([evaluation('inc', { a: 1 })], [evaluation('cha', { a: 1 }, { status: 'rejected' })]))),
    /challenger repeat 1 .* is rejected/,
  );
});

test('empty or unequal repeat lists are refused', () => {
  assert.match(failure(pairScenarios(input([], [evaluation('cha', { a: 1 })]))), /no incumbent evaluation/);
  assert.match(failure(pairScenarios(input([evaluation('inc', { a: 1 })], []))), /no challenger evaluation/);
  assert.match(
    failure(
      pairScenarios(input([evaluation('inc', { a: 1 })], [evaluation('cha', { a: 1 }), evaluation('cha', { a: 1 })])),
    ),
    /repeat counts differ: 1 incumbent, 2 challenger/,
  );
});

test('inconsistent evidence is refused: test counts, pack hashes, duplicates, impossible scores', () => {
  const changedTotal = evaluation('cha', { a: 1 });
  changedTotal.perScenario[0]!.testsTotal = 12;
  assert.match(
    failure(pairScenarios(input([evaluation('inc', { a: 1 })], [changedTotal]))),
    /scenario a has different test counts across evaluations \(10, 12\)/,
  );
  assert.match(
    failure(pairScenarios(input([evaluation('other', { a: 1 })], [evaluation('cha', { a: 1 })]))),
    /evaluated pack other, not the incumbent's inc/,
  );
  const duplicated = evaluation('cha', { a: 1 });
  duplicated.perScenario.push({ scenario: 'a', testsPassed: 2, testsTotal: 10 });
  assert.match(failure(pairScenarios(input([evaluation('inc', { a: 1 })], [duplicated]))), /lists scenario a twice/);
  assert.match(
    failure(pairScenarios(input([evaluation('inc', { a: 11 })], [evaluation('cha', { a: 1 })]))),
    /11 of 10 tests/,
  );
  assert.match(
    failure(
      pairScenarios({
        ...input([evaluation('inc', { a: 1 })], [evaluation('inc', { a: 1 })]),
        challengerPackHash: 'inc',
      }),
    ),
    /own pack/,
  );
});

test('no shared scenario, or no tests at all, is refused', () => {
  assert.match(
    failure(pairScenarios(input([evaluation('inc', { a: 1 })], [evaluation('cha', { b: 1 })]))),
    /no scenario was scored in every evaluation/,
  );
  const empty = (packHash: string) => ({
    ...evaluation(packHash, {}),
    perScenario: [{ scenario: 'a', testsPassed: 0, testsTotal: 0 }],
  });
  assert.match(failure(pairScenarios(input([empty('inc')], [empty('cha')]))), /no tests/);
});

test('a scenario the pack broke before verification counts 0 of the tests the other side found', () => {
  const broken = evaluation('inc', { a: 0, b: 4 });
  broken.perScenario[0] = { scenario: 'a', testsPassed: 0, testsTotal: 0, unverified: true };
  const pairing = pairScenarios(input([broken], [evaluation('cha', { a: 7, b: 8 })]));
  assert.ok(pairing.ok, JSON.stringify(pairing));
  assert.deepEqual(pairing.scenarios[0], { scenario: 'a', testsTotal: 10, incumbent: 0, challenger: 7, difference: 7 });
  assert.deepEqual(pairing.excludedScenarios, []);
});

test('a scenario no evaluation verified is left out', () => {
  const unverified = (hash: string) => {
    const e = evaluation(hash, { a: 0, b: 4 });
    e.perScenario[0] = { scenario: 'a', testsPassed: 0, testsTotal: 0, unverified: true };
    return e;
  };
  const pairing = pairScenarios(input([unverified('inc')], [unverified('cha')]));
  assert.ok(pairing.ok);
  assert.deepEqual(
    pairing.scenarios.map((s) => s.scenario),
    ['b'],
  );
  assert.deepEqual(pairing.excludedScenarios, ['a']);
});
