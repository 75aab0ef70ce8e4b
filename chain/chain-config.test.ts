import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readChainConfig, seatConfigFrom } from './chain-config.ts';

test('defaults give the offline local chain on netuid 11', () => {
  const config = readChainConfig({});
  assert.equal(config.TRL_CHAIN, 'local');
  assert.equal(config.TRL_NETUID, 11);
  assert.deepEqual(seatConfigFrom(config).scenarios, []);
});

test('bad values name the variable and the fix', () => {
  assert.throws(() => readChainConfig({ TRL_CHAIN: 'subtensor' }), /TRL_CHAIN_ENDPOINT: .*required/);
  assert.throws(() => readChainConfig({ TRL_CHAIN: 'finney' }), /TRL_CHAIN: .*"local"/);
  assert.throws(
    () => readChainConfig({ TRL_CHAIN: 'subtensor', TRL_CHAIN_ENDPOINT: 'http://x' }),
    /TRL_CHAIN_ENDPOINT: .*ws/,
  );
  assert.throws(() => readChainConfig({ TRL_SEAT_BOOTSTRAP_RESAMPLES: '500' }), /TRL_SEAT_BOOTSTRAP_RESAMPLES/);
});

test('the seat scenario list is split and trimmed', () => {
  assert.deepEqual(seatConfigFrom(readChainConfig({ TRL_SEAT_SCENARIOS: 'a, b,,c ' })).scenarios, ['a', 'b', 'c']);
});
