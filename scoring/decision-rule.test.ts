import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { DecisionInput, ScoredEvaluation } from '../contracts/seat.ts';
import { decideChallenge, defaultBootstrapResamples } from './decision-rule.ts';
import { pairSeed, SeededRandom, seedToString } from './seeded-random.ts';

const incumbentHash = 'a'.repeat(64);
const challengerHash = 'b'.repeat(64);
const scenarioNames = Array.from({ length: 26 }, (_, i) => `scenario-${String(i).padStart(2, '0')}`);

/** One evaluation of 26 scenarios from a list of tests passed (each scenario has `testsTotal` tests). */
function evaluation(
  packHash: string,
  passed: readonly number[],
  testsTotal = 10,
  overrides: Partial<ScoredEvaluation> = {},
): ScoredEvaluation {
  const perScenario = passed.map((testsPassed, i) => ({ scenario: scenarioNames[i]!, testsPassed, testsTotal }));
  return {
    packHash,
    workflowId: `wf-${packHash.slice(0, 4)}`,
    status: 'completed',
    testsPassed: passed.reduce((sum, value) => sum + value, 0),
    testsTotal: testsTotal * passed.length,
    perScenario,
    ...overrides,
  };
}

function decisionInput(incumbent: number[][], challenger: number[][], testsTotal = 10): DecisionInput {
  return {
    incumbentPackHash: incumbentHash,
    challengerPackHash: challengerHash,
    incumbent: incumbent.map((passed) => evaluation(incumbentHash, passed, testsTotal)),
    challenger: challenger.map((passed) => evaluation(challengerHash, passed, testsTotal)),
  };
}

const filled = (value: number) => new Array<number>(26).fill(value);
const close = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} ≠ ${expected}`);

test('hand-worked margins: s = 0.5 → δ = 3%; s = 0.85 → 1.5%; s = 1 → 0', () => {
  const half = decideChallenge(decisionInput([filled(5)], [filled(5)]));
  assert.equal(half.incumbentTotal, 130);
  assert.equal(half.maxTotal, 260);
  close(half.incumbentShare, 0.5);
  close(half.marginFraction, 0.03);
  close(half.marginTests, 3.9);
  close(half.requiredTotal, 133.9);

  // 20 tests per scenario, 17 passed: s = 442 / 520 = 0.85, δ = 0.03 × 0.15 / 0.30.
  const high = decideChallenge(decisionInput([filled(17)], [filled(17)], 20));
  close(high.incumbentShare, 0.85);
  close(high.marginFraction, 0.015);
  close(high.marginTests, 6.63);

  const perfect = decideChallenge(decisionInput([filled(10)], [filled(10)]));
  close(perfect.incumbentShare, 1);
  assert.equal(perfect.marginFraction, 0);
  assert.equal(perfect.outcome, 'incumbent_keeps_seat'); // a perfect incumbent can only be tied
});

test('one test above a near-perfect incumbent clears the margin but not the bound', () => {
  // I = 21 × 10 + 5 × 9 = 255 of 260 (s ≈ 0.981, δ ≈ 0.19%, margin ≈ 0.49 tests); C = 256.
  const incumbent = [...filled(10).slice(0, 21), 9, 9, 9, 9, 9];
  const challenger = [...incumbent];
  challenger[21] = 10;
  const decision = decideChallenge(decisionInput([incumbent], [challenger]));
  assert.equal(decision.incumbentTotal, 255);
  assert.equal(decision.challengerTotal, 256);
  assert.ok(decision.marginTests < 1);
  assert.equal(decision.passedMargin, true);
  // One scenario carries the whole gain: a resample misses it about 36% of the time.
  assert.equal(decision.bootstrap.lowerBound, 0);
  assert.equal(decision.bootstrap.passed, false);
  assert.equal(decision.outcome, 'incumbent_keeps_seat');
  assert.match(decision.reason, /bound failed/);
  assert.match(decision.reason, /lower bound of C − I is 0 tests/);
});

test('a clearly better challenger takes the seat, with the evidence recorded', () => {
  const incumbent = filled(6);
  const challenger = Array.from({ length: 26 }, (_, i) => (i % 4 === 0 ? 7 : 8));
  const decision = decideChallenge(decisionInput([incumbent], [challenger]));
  assert.equal(decision.outcome, 'challenger_takes_seat');
  assert.equal(decision.incumbentTotal, 156);
  assert.equal(decision.challengerTotal, 7 * 7 + 19 * 8);
  assert.equal(decision.passedMargin, true);
  assert.ok(decision.bootstrap.lowerBound > 0);
  assert.equal(decision.bootstrap.resamples, 10_000);
  assert.equal(decision.bootstrap.confidence, 0.95);
  assert.equal(decision.perScenario.length, 26);
  assert.deepEqual(decision.perScenario[0], { scenario: 'scenario-00', incumbent: 6, challenger: 7, difference: 1 });
  assert.equal(decision.repeats, 1);
  assert.match(decision.reason, /^challenger takes the seat: challenger 201 vs incumbent 156 of 260 tests/);
});

test('ties stay with the incumbent: equal scores, and a score exactly at the threshold', () => {
  const equal = decideChallenge(decisionInput([filled(5)], [filled(5)]));
  assert.equal(equal.outcome, 'incumbent_keeps_seat');
  assert.match(equal.reason, /margin and bound both failed/);

  // 100 tests per scenario, 50 passed: I = 1300, s = 0.5, margin 39, so C must exceed 1339.
  const incumbent = filled(50);
  const atThreshold = Array.from({ length: 26 }, (_, i) => (i % 2 === 0 ? 51 : 52)); // C = 1339
  const tie = decideChallenge(decisionInput([incumbent], [atThreshold], 100));
  assert.equal(tie.challengerTotal, 1339);
  close(tie.requiredTotal, 1339);
  assert.equal(tie.bootstrap.passed, true);
  assert.equal(tie.passedMargin, false);
  assert.equal(tie.outcome, 'incumbent_keeps_seat');
  assert.match(tie.reason, /margin failed/);

  const oneMore = [...atThreshold];
  oneMore[0] = 52;
  assert.equal(decideChallenge(decisionInput([incumbent], [oneMore], 100)).outcome, 'challenger_takes_seat');
});

test('incomplete or rejected evaluations, empty or unequal repeats: no decision, naming which', () => {
  const base = decisionInput([filled(5), filled(5)], [filled(9), filled(9)]);
  const incomplete = decideChallenge({
    ...base,
    challenger: [base.challenger[0]!, { ...base.challenger[1]!, status: 'incomplete' }],
  });
  assert.equal(incomplete.outcome, 'no_decision');
  assert.match(incomplete.reason, /challenger repeat 2 .* is incomplete/);
  assert.equal(incomplete.passedMargin, false);
  assert.equal(incomplete.bootstrap.passed, false);

  const rejected = decideChallenge({
    ...base,
    incumbent: [{ ...base.incumbent[0]!, status: 'rejected' }, base.incumbent[1]!],
  });
  assert.match(rejected.reason, /incumbent repeat 1 .* is rejected/);
  assert.equal(decideChallenge({ ...base, incumbent: [] }).outcome, 'no_decision');
  assert.match(decideChallenge({ ...base, challenger: [base.challenger[0]!] }).reason, /repeat counts differ/);
});

test('resample counts below 10,000 and confidence outside [0.5, 1) are refused', () => {
  const base = decisionInput([filled(5)], [filled(9)]);
  assert.match(
    decideChallenge({ ...base, bootstrapResamples: 9_999 }).reason,
    /bootstrapResamples must be an integer from 10000/,
  );
  assert.equal(decideChallenge({ ...base, bootstrapResamples: 10_000.5 }).outcome, 'no_decision');
  assert.match(decideChallenge({ ...base, confidence: 1 }).reason, /confidence must be in/);
  const stricter = decideChallenge({ ...base, bootstrapResamples: 20_000, confidence: 0.99 });
  assert.equal(stricter.outcome, 'challenger_takes_seat');
  assert.equal(stricter.bootstrap.resamples, 20_000);
});

test('the same input always gives an identical decision', () => {
  const incumbent = Array.from({ length: 26 }, (_, i) => ((i * 7) % 11 === 10 ? 9 : (i * 7) % 11));
  const challenger = incumbent.map((value, i) => Math.min(10, value + (i % 3 === 0 ? 2 : i % 3 === 1 ? 0 : -1)));
  const first = decideChallenge(decisionInput([incumbent], [challenger]));
  const second = decideChallenge(decisionInput([incumbent], [challenger]));
  assert.deepEqual(second, first);
  assert.equal(JSON.stringify(second), JSON.stringify(first));
});

test('the seed comes from both hashes in order: swapping them changes it', () => {
  const forward = decideChallenge(decisionInput([filled(5)], [filled(6)]));
  const swapped = decideChallenge({
    ...decisionInput([filled(6)], [filled(5)]),
    incumbentPackHash: challengerHash,
    challengerPackHash: incumbentHash,
    incumbent: [evaluation(challengerHash, filled(6))],
    challenger: [evaluation(incumbentHash, filled(5))],
  });
  assert.equal(forward.bootstrap.seed, seedToString(pairSeed(incumbentHash, challengerHash)));
  assert.match(forward.bootstrap.seed, /^[0-9a-f]{16}$/);
  assert.notEqual(swapped.bootstrap.seed, forward.bootstrap.seed);
});

test('scenarios missing from one evaluation are left out, named, and the order of lists does not matter', () => {
  const input = decisionInput([filled(5)], [filled(9)]);
  const challenger = input.challenger[0]!;
  const withoutTwo = {
    ...challenger,
    perScenario: challenger.perScenario
      .filter((score) => !['scenario-03', 'scenario-17'].includes(score.scenario))
      .reverse(),
  };
  const decision = decideChallenge({ ...input, challenger: [withoutTwo] });
  assert.equal(decision.maxTotal, 240);
  assert.equal(decision.perScenario.length, 24);
  assert.deepEqual(decision.excludedScenarios, ['scenario-03', 'scenario-17']);
  assert.match(decision.reason, /2 scenario\(s\) not in every evaluation left out: scenario-03, scenario-17/);

  const reordered = { ...input.incumbent[0]!, perScenario: [...input.incumbent[0]!.perScenario].reverse() };
  assert.deepEqual(decideChallenge({ ...input, incumbent: [reordered] }), decideChallenge(input));
});

test('repeats are averaged per scenario before comparing', () => {
  const decision = decideChallenge(decisionInput([filled(5), filled(6)], [filled(8), filled(9)]));
  assert.equal(decision.repeats, 2);
  assert.equal(decision.incumbentTotal, 143);
  assert.equal(decision.challengerTotal, 221);
  assert.equal(decision.perScenario[0]!.difference, 3);
});

test('10,000 resamples over 26 scenarios cost 10,000 × 26 random draws, no more (the time is in bench/linear-work.ts)', () => {
  const input = decisionInput(
    [Array.from({ length: 26 }, (_, i) => i % 11)],
    [Array.from({ length: 26 }, (_, i) => (i + 3) % 11)],
  );
  const draw = SeededRandom.prototype.nextUint32;
  let draws = 0;
  SeededRandom.prototype.nextUint32 = function (this: SeededRandom) {
    draws += 1;
    return draw.call(this);
  };
  try {
    assert.equal(decideChallenge(input).bootstrap.resamples, defaultBootstrapResamples);
  } finally {
    SeededRandom.prototype.nextUint32 = draw;
  }
  // One draw per scenario per resample; Lemire's rejection below 26 is about one in 165 million.
  const expected = defaultBootstrapResamples * 26;
  assert.ok(draws >= expected && draws <= expected + 10, `${draws} draws for ${expected} picks`);
});

test('property: a challenger with C ≤ I never takes the seat', () => {
  const scores = fc.array(fc.tuple(fc.integer({ min: 1, max: 12 }), fc.nat(), fc.nat()), {
    minLength: 1,
    maxLength: 26,
  });
  fc.assert(
    fc.property(scores, fc.integer({ min: 1, max: 3 }), fc.string(), (rows, repeats, hashSuffix) => {
      // Per scenario: a test count, and seeds for each side's passes in each repeat.
      const sideEvaluations = (packHash: string, salt: number) =>
        Array.from({ length: repeats }, (_, repeat) => ({
          packHash,
          workflowId: `wf-${repeat}`,
          status: 'completed' as const,
          testsPassed: 0,
          testsTotal: 0,
          perScenario: rows.map(([testsTotal, a, b], i) => ({
            scenario: `s${i}`,
            testsTotal,
            testsPassed: (a * (repeat + 1) + b * salt + i) % (testsTotal + 1),
          })),
        }));
      const decision = decideChallenge({
        incumbentPackHash: `inc${hashSuffix}`,
        challengerPackHash: `cha${hashSuffix}`,
        incumbent: sideEvaluations(`inc${hashSuffix}`, 1),
        challenger: sideEvaluations(`cha${hashSuffix}`, 3),
      });
      if (decision.outcome !== 'challenger_takes_seat') return true;
      return (
        decision.challengerTotal > decision.incumbentTotal &&
        decision.challengerTotal > decision.requiredTotal &&
        decision.bootstrap.lowerBound > 0
      );
    }),
    { numRuns: 200 },
  );
});
