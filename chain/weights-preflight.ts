// Checks made before a weight extrinsic is sent, so a refusal costs no fee and says why in our
// words. The chain checks again; these mirror its rules for the calls we make.
import { ChainError } from './chain-error.ts';
import type { Metagraph, Neuron, WeightSettings } from './chain-client.ts';

export interface PreflightInput {
  signer: string;
  metagraph: Metagraph;
  settings: WeightSettings;
  uids: number[];
  values: number[];
}

/** Returns the signer's neuron when the weights may be set now; throws ChainError('preflight') otherwise. */
export function checkWeightsPreflight(input: PreflightInput): Neuron {
  const { signer, metagraph, settings, uids, values } = input;
  const refuse = (code: string, message: string, options: { retryable?: boolean; retryAtBlock?: number } = {}) => {
    throw new ChainError('preflight', code, message, options);
  };
  const self = metagraph.neurons.find((neuron) => neuron.hotkey === signer);
  if (!self)
    refuse(
      'not_registered',
      `hotkey ${signer} is not registered on subnet ${metagraph.netuid}; register it before setting weights`,
    );
  if (!self!.validatorPermit)
    refuse(
      'no_validator_permit',
      `hotkey ${signer} (uid ${self!.uid}) has no validator permit on subnet ${metagraph.netuid}; it needs more stake`,
    );
  if (uids.length === 0 || uids.length !== values.length)
    refuse(
      'invalid_weights',
      `uids (${uids.length}) and values (${values.length}) must be non-empty and of equal length`,
    );
  if (new Set(uids).size !== uids.length) refuse('invalid_weights', 'uids must not repeat');
  const known = new Set(metagraph.neurons.map((neuron) => neuron.uid));
  const unknown = uids.filter((uid) => !known.has(uid));
  if (unknown.length)
    refuse('invalid_weights', `uids ${unknown.join(', ')} are not registered on subnet ${metagraph.netuid}`);
  if (values.some((value) => !Number.isInteger(value) || value < 0 || value > 65535))
    refuse('invalid_weights', 'values must be integers in 0..65535');
  if (values.every((value) => value === 0)) refuse('invalid_weights', 'at least one value must be above zero');
  const required = Math.min(settings.minAllowedWeights, metagraph.neurons.length);
  if (uids.length < required) {
    refuse(
      'min_allowed_weights',
      `the subnet requires weights on at least ${settings.minAllowedWeights} uids (MinAllowedWeights); winner-take-all sets one`,
    );
  }
  if (settings.maxWeightsLimit < 65535) {
    const total = values.reduce((sum, value) => sum + value, 0);
    const largest = Math.max(...values);
    if ((largest / total) * 65535 > settings.maxWeightsLimit) {
      refuse(
        'max_weights_limit',
        `one uid would hold ${((largest / total) * 100).toFixed(1)}% of the weight; MaxWeightsLimit allows ${((settings.maxWeightsLimit / 65535) * 100).toFixed(1)}%`,
      );
    }
  }
  const nextAllowed = self!.lastUpdate + settings.weightsRateLimit;
  if (self!.lastUpdate > 0 && metagraph.block < nextAllowed) {
    refuse(
      'rate_limited',
      `weights were set at block ${self!.lastUpdate}; WeightsSetRateLimit allows the next at block ${nextAllowed} (now ${metagraph.block})`,
      { retryable: true, retryAtBlock: nextAllowed },
    );
  }
  return self!;
}
