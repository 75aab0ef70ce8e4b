import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkWeightsPreflight, type PreflightInput } from './weights-preflight.ts';
import { ChainError } from './chain-error.ts';
import type { WeightSettings } from './chain-client.ts';

const settings: WeightSettings = {
  block: 1000,
  tempo: 360,
  weightsRateLimit: 100,
  weightsVersionKey: 0,
  minAllowedWeights: 1,
  maxWeightsLimit: 65535,
  commitRevealEnabled: false,
  revealPeriodEpochs: 1,
  kappa: 0.5,
};

function input(overrides: Partial<PreflightInput> = {}): PreflightInput {
  return {
    signer: 'validator',
    metagraph: {
      netuid: 11,
      block: 1000,
      neurons: [
        { uid: 0, hotkey: 'validator', stakeTao: 1000, validatorPermit: true, lastUpdate: 850, active: true },
        { uid: 1, hotkey: 'miner', stakeTao: 0, validatorPermit: false, lastUpdate: 0, active: true },
      ],
    },
    settings,
    uids: [1],
    values: [65535],
    ...overrides,
  };
}

function refusal(run: () => unknown): ChainError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ChainError);
    return error;
  }
  assert.fail('expected a refusal');
}

test('a permitted, registered validator outside the rate limit may set winner-take-all weights', () => {
  assert.equal(checkWeightsPreflight(input()).uid, 0);
});

test('each broken rule is refused by name', () => {
  assert.equal(refusal(() => checkWeightsPreflight(input({ signer: 'stranger' }))).code, 'not_registered');
  assert.equal(refusal(() => checkWeightsPreflight(input({ signer: 'miner' }))).code, 'no_validator_permit');
  assert.equal(refusal(() => checkWeightsPreflight(input({ uids: [7] }))).code, 'invalid_weights');
  assert.equal(refusal(() => checkWeightsPreflight(input({ uids: [1, 1], values: [1, 1] }))).code, 'invalid_weights');
  assert.equal(refusal(() => checkWeightsPreflight(input({ values: [0] }))).code, 'invalid_weights');
  assert.equal(
    refusal(() => checkWeightsPreflight(input({ settings: { ...settings, minAllowedWeights: 2 } }))).code,
    'min_allowed_weights',
  );
  assert.equal(
    refusal(() => checkWeightsPreflight(input({ settings: { ...settings, maxWeightsLimit: 32768 } }))).code,
    'max_weights_limit',
  );
});

test('the rate limit is retryable and says when', () => {
  const error = refusal(() => checkWeightsPreflight(input({ settings: { ...settings, weightsRateLimit: 200 } })));
  assert.equal(error.code, 'rate_limited');
  assert.equal(error.retryable, true);
  assert.equal(error.retryAtBlock, 1050);
});
