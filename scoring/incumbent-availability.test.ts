import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScoredEvaluation } from '../contracts/seat.ts';
import { incumbentAvailability } from './incumbent-availability.ts';

const evaluation = (status: ScoredEvaluation['status'], rejectionCodes?: string[]): ScoredEvaluation => ({
  packHash: 'p',
  workflowId: `eval-${status}`,
  status,
  testsPassed: 0,
  testsTotal: 0,
  perScenario: [],
  ...(rejectionCodes ? { rejectionCodes } : {}),
});

test('an incumbent evaluated in full starts the count again', () => {
  assert.deepEqual(
    incumbentAvailability({
      incumbent: [evaluation('completed')],
      challenger: [evaluation('completed')],
      priorRounds: 1,
    }),
    { kind: 'evaluated' },
  );
});

test('an incomplete incumbent beside an incomplete challenger says nothing about the incumbent', () => {
  assert.equal(
    incumbentAvailability({
      incumbent: [evaluation('incomplete')],
      challenger: [evaluation('incomplete')],
      priorRounds: 1,
    }).kind,
    'unknown',
  );
  assert.equal(
    incumbentAvailability({
      incumbent: [evaluation('rejected', ['judge_unavailable'])],
      challenger: [evaluation('completed')],
      priorRounds: 1,
    }).kind,
    'unknown',
  );
  assert.equal(
    incumbentAvailability({ incumbent: [], challenger: [evaluation('completed')], priorRounds: 0 }).kind,
    'unknown',
  );
});

test('an incumbent that cannot be evaluated while the challenger can forfeits after two challenges', () => {
  const first = incumbentAvailability({
    incumbent: [evaluation('incomplete')],
    challenger: [evaluation('completed')],
    priorRounds: 0,
  });
  assert.equal(first.kind, 'unevaluable');
  assert.ok(
    first.kind === 'unevaluable' && !first.forfeits && first.rounds === 1 && /1 of 2/.test(first.reason),
    JSON.stringify(first),
  );
  const second = incumbentAvailability({
    incumbent: [evaluation('completed'), evaluation('incomplete')],
    challenger: [evaluation('completed'), evaluation('completed')],
    priorRounds: 1,
  });
  assert.ok(
    second.kind === 'unevaluable' && second.forfeits && second.rounds === 2 && /forfeits the seat/.test(second.reason),
    JSON.stringify(second),
  );
  const rejected = incumbentAvailability({
    incumbent: [evaluation('rejected', ['pack_invalid'])],
    challenger: [evaluation('completed')],
    priorRounds: 0,
    forfeitRounds: 1,
  });
  assert.ok(rejected.kind === 'unevaluable' && rejected.forfeits && /pack_invalid/.test(rejected.reason));
});
