import assert from 'node:assert/strict';
import test from 'node:test';
import { applyUpstreamOption, parseUpstreamOption } from './upstream-option.ts';

test('--upstream takes sim-fleet or local-model and sets TRL_UPSTREAM', () => {
  const env: NodeJS.ProcessEnv = {};
  applyUpstreamOption('local-model', env);
  assert.equal(env.TRL_UPSTREAM, 'local-model');
  applyUpstreamOption(undefined, env);
  assert.equal(env.TRL_UPSTREAM, 'local-model');
  assert.throws(() => parseUpstreamOption('gpt'), /--upstream must be one of sim-fleet, local-model; got "gpt"/);
});

test('--upstream and a provider base URL exclude each other', () => {
  assert.throws(
    () => applyUpstreamOption('local-model', { TRL_UPSTREAM_BASE_URL: 'https://x/v1' }),
    /exclude each other; unset TRL_UPSTREAM_BASE_URL/,
  );
});
