import test from 'node:test';
import assert from 'node:assert/strict';
import { applyDecision, decide } from './seat-decision.ts';
import {
  newSeatState,
  seatConfigSchema,
  type Challenge,
  type ScoredEvaluation,
  type SeatState,
} from '../contracts/seat.ts';
import type { ChallengeRuns } from './seat-evaluations.ts';

const hash = (n: number) => n.toString(16).padStart(64, '0');
const challenge: Challenge = { packHash: hash(2), url: 'https://example.com/c.json', hotkey: 'carol', commitBlock: 7 };
const scenarios = ['a', 'b', 'c', 'd', 'e', 'f'];

function scored(
  workflowId: string,
  status: ScoredEvaluation['status'],
  passed: number[],
  rejectionCodes?: string[],
): ScoredEvaluation {
  const perScenario =
    status === 'completed'
      ? scenarios.map((s, i) => ({ scenario: s, testsPassed: passed[i] ?? 0, testsTotal: 10 }))
      : [];
  return {
    packHash: workflowId.startsWith('c') ? challenge.packHash : hash(1),
    workflowId,
    status,
    testsPassed: perScenario.reduce((sum, s) => sum + s.testsPassed, 0),
    testsTotal: perScenario.length * 10,
    perScenario,
    ...(rejectionCodes ? { rejectionCodes } : {}),
  };
}

function seatWithIncumbent(unevaluableRounds = 0): SeatState {
  const state = newSeatState(seatConfigSchema.parse({ netuid: 7 }));
  state.incumbent = {
    packHash: hash(1),
    url: 'https://example.com/i.json',
    hotkey: 'ivan',
    seatedTestsPassed: 30,
    seatedTestsTotal: 60,
    seatedAt: '2026-12-01T00:00:00.000Z',
    unevaluableRounds,
  };
  state.current = challenge;
  return state;
}

const runs = (first: ScoredEvaluation, incumbentRuns: ScoredEvaluation[] = []): ChallengeRuns => ({
  first,
  challengerRest: [],
  incumbentRuns,
});

test('a rejected challenger: no decision, not retried, every evaluation that ran on the record', () => {
  const state = seatWithIncumbent();
  const {
    record,
    decision,
    scored: evidence,
  } = decide(state, challenge, runs(scored('c0', 'rejected', [], ['pack_too_large'])));
  assert.equal(decision, undefined);
  assert.deepEqual(
    { outcome: record.outcome, incomplete: record.incomplete, number: record.number, evaluations: record.evaluations },
    { outcome: 'no_decision', incomplete: false, number: 1, evaluations: ['c0'] },
  );
  assert.match(record.reason, /rejected \(pack_too_large\)/);
  assert.equal(evidence.length, 1);
  applyDecision(state, challenge, record);
  assert.deepEqual(state.decided, [challenge.packHash]);
  assert.equal(state.current, null);
});

test('a judge that could not be reached rejects only for now: the challenger may come again, a few times', () => {
  const state = seatWithIncumbent();
  for (let attempt = 1; attempt <= 3; attempt++) {
    const { record } = decide(state, challenge, runs(scored('c0', 'rejected', [], ['judge_unavailable'])));
    assert.equal(record.incomplete, true);
    applyDecision(state, challenge, record);
    assert.equal(state.decided.includes(challenge.packHash), attempt === 3, `attempt ${attempt}`);
  }
  assert.equal(state.decisions, 3);
  assert.equal(state.incompleteAttempts[challenge.packHash], undefined);
});

test('an empty seat goes to a complete challenger, with its mean', () => {
  const state = newSeatState(seatConfigSchema.parse({ netuid: 7 }));
  const { record } = decide(state, challenge, {
    first: scored('c0', 'completed', [5, 5, 5, 5, 5, 5]),
    challengerRest: [scored('c1', 'completed', [6, 6, 6, 6, 6, 6])],
    incumbentRuns: [],
  });
  assert.deepEqual(
    { outcome: record.outcome, challengerTotal: record.challengerTotal, testsTotal: record.testsTotal },
    { outcome: 'challenger_takes_seat', challengerTotal: 33, testsTotal: 60 },
  );
  record.decidedAt = '2026-12-04T00:00:00.000Z';
  applyDecision(state, challenge, record);
  assert.deepEqual(
    { packHash: state.incumbent?.packHash, seated: state.incumbent?.seatedTestsPassed, at: state.incumbent?.seatedAt },
    { packHash: challenge.packHash, seated: 33, at: '2026-12-04T00:00:00.000Z' },
  );
});

test('an incumbent that cannot be evaluated holds the challenger back, then forfeits; the count is on the incumbent', () => {
  const state = seatWithIncumbent();
  const first = decide(
    state,
    challenge,
    runs(scored('c0', 'completed', [5, 5, 5, 5, 5, 5]), [scored('i0', 'incomplete', [])]),
  );
  assert.deepEqual(
    {
      outcome: first.record.outcome,
      unevaluable: first.record.incumbentUnevaluable,
      rounds: state.incumbent?.unevaluableRounds,
    },
    { outcome: 'no_decision', unevaluable: true, rounds: 1 },
  );
  applyDecision(state, challenge, first.record);
  assert.equal(state.decided.includes(challenge.packHash), false);
  assert.equal(state.incompleteAttempts[challenge.packHash], undefined);
  const second = decide(
    state,
    challenge,
    runs(scored('c0', 'completed', [5, 5, 5, 5, 5, 5]), [scored('i0', 'incomplete', [])]),
  );
  assert.deepEqual(
    {
      outcome: second.record.outcome,
      forfeits: second.record.incumbentForfeits,
      evaluations: second.record.evaluations,
    },
    { outcome: 'challenger_takes_seat', forfeits: true, evaluations: ['c0', 'i0'] },
  );
});

test('both sides complete: the decision rule decides, and an evaluated incumbent starts its count again', () => {
  const state = seatWithIncumbent(1);
  const { record, decision } = decide(
    state,
    challenge,
    runs(scored('c0', 'completed', [10, 10, 10, 10, 10, 10]), [scored('i0', 'completed', [2, 2, 2, 2, 2, 2])]),
  );
  assert.equal(decision?.outcome, 'challenger_takes_seat');
  assert.deepEqual(
    { outcome: record.outcome, incumbentTotal: record.incumbentTotal, challengerTotal: record.challengerTotal },
    { outcome: 'challenger_takes_seat', incumbentTotal: 12, challengerTotal: 60 },
  );
  assert.equal(state.incumbent?.unevaluableRounds, 0);
  applyDecision(state, challenge, record);
  assert.equal(state.history.at(-1), record);
  assert.equal(state.incumbent?.packHash, challenge.packHash);
});
