import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nanoUsdFromUsd, nanoUsdPerTokenFromUsdPerMillionTokens, roundedUsd, usdFromNanoUsd } from './money.ts';

test('catalog prices become whole nano-dollars per token', () => {
  assert.equal(nanoUsdPerTokenFromUsdPerMillionTokens(0.045), 45n);
  assert.equal(nanoUsdPerTokenFromUsdPerMillionTokens(0.008), 8n);
  assert.equal(nanoUsdPerTokenFromUsdPerMillionTokens(1.95), 1950n);
  assert.equal(nanoUsdPerTokenFromUsdPerMillionTokens(9.75), 9750n);
  assert.equal(nanoUsdPerTokenFromUsdPerMillionTokens(0.195), 195n);
  assert.equal(nanoUsdPerTokenFromUsdPerMillionTokens(0), 0n);
});

test('a price finer than $0.001 per million tokens is refused with the fix', () => {
  assert.throws(
    () => nanoUsdPerTokenFromUsdPerMillionTokens(0.0451, 'kimi-k3 prompt'),
    /kimi-k3 prompt.*three decimals/,
  );
  assert.throws(() => nanoUsdPerTokenFromUsdPerMillionTokens(-1), /≥ 0/);
  assert.throws(() => nanoUsdPerTokenFromUsdPerMillionTokens(Number.NaN), /finite/);
});

test('caps in USD become exact nano-dollars', () => {
  assert.equal(nanoUsdFromUsd(0.3), 300_000_000n);
  assert.equal(nanoUsdFromUsd(1), 1_000_000_000n);
  assert.throws(() => nanoUsdFromUsd(0.1234567891), /nine decimals/);
});

test('sums of exact amounts do not drift where floats do', () => {
  let exact = 0n;
  let float = 0;
  for (let index = 0; index < 10; index++) {
    exact += nanoUsdFromUsd(0.1);
    float += 0.1;
  }
  assert.equal(exact, nanoUsdFromUsd(1));
  assert.notEqual(float, 1);
});

test('reporting rounds half up to six decimals', () => {
  assert.equal(roundedUsd(1_234_567_890n), 1.234568);
  assert.equal(roundedUsd(1_234_567_490n), 1.234567);
  assert.equal(roundedUsd(500n), 0.000001);
  assert.equal(roundedUsd(-500n), -0.000001);
  assert.equal(usdFromNanoUsd(300_000_000n), 0.3);
});
