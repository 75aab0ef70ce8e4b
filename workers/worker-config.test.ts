import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readWorkerConfig } from './worker-config.ts';

test('spend ceilings default to $30 per submission and $500 per UTC day', () => {
  const config = readWorkerConfig({});
  assert.equal(config.TRL_SUBMISSION_CEILING_USD, 30);
  assert.equal(config.TRL_DAILY_CEILING_USD, 500);
  assert.equal(readWorkerConfig({ TRL_SUBMISSION_CEILING_USD: '2.5', TRL_DAILY_CEILING_USD: '40' }).TRL_SUBMISSION_CEILING_USD, 2.5);
});

test('a ceiling below the scenario cap, or not a positive number, is refused by name', () => {
  assert.throws(() => readWorkerConfig({ TRL_BUDGET_CAP_USD: '2', TRL_SUBMISSION_CEILING_USD: '1' }), /TRL_SUBMISSION_CEILING_USD: .*at least TRL_BUDGET_CAP_USD/);
  assert.throws(() => readWorkerConfig({ TRL_DAILY_CEILING_USD: '0.5' }), /TRL_DAILY_CEILING_USD: .*at least TRL_BUDGET_CAP_USD/);
  assert.throws(() => readWorkerConfig({ TRL_DAILY_CEILING_USD: '-3' }), /TRL_DAILY_CEILING_USD: TRL_DAILY_CEILING_USD must be a positive number/);
  assert.throws(() => readWorkerConfig({ TRL_SUBMISSION_CEILING_USD: 'lots' }), /TRL_SUBMISSION_CEILING_USD/);
});
