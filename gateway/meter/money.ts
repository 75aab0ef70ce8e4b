// Money inside the meter is an integer count of nano-dollars (1e-9 USD) held in a bigint: every
// catalog price in $ per million tokens with at most three decimals is a whole number of
// nano-dollars per token, so reservations, costs and sums are exact and never drift, and no token
// count an upstream reports can overflow them.

export const nanoUsdPerUsd = 1_000_000_000n;
// $ per million tokens × 1000 = nano-dollars per token.
const nanoUsdPerTokenPerUsdPerMillionTokens = 1000;
// Float noise allowed when a decimal amount is scaled to an integer (0.3 × 1e9 is not exactly 3e8).
const scaledTolerance = 1e-6;

function exactScaledInteger(value: number, scale: number, what: string, fix: string): bigint {
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`${what} must be a finite number ≥ 0, got ${value}`);
  }
  const scaled = value * scale;
  const rounded = Math.round(scaled);
  if (Math.abs(scaled - rounded) > scaledTolerance || !Number.isSafeInteger(rounded)) {
    throw new RangeError(`${what} is ${value}: ${fix}`);
  }
  return BigInt(rounded);
}

export function nanoUsdFromUsd(usd: number, what = 'amount in USD'): bigint {
  return exactScaledInteger(usd, Number(nanoUsdPerUsd), what, 'give it to at most nine decimals (whole nano-dollars)');
}

export function nanoUsdPerTokenFromUsdPerMillionTokens(usdPerMillionTokens: number, what = 'price'): bigint {
  return exactScaledInteger(
    usdPerMillionTokens,
    nanoUsdPerTokenPerUsdPerMillionTokens,
    `${what} ($ per million tokens)`,
    'give it to at most three decimals ($0.001 per million tokens is one nano-dollar a token)',
  );
}

/** The nearest double to an exact amount; for reporting only, never for further arithmetic. */
export function usdFromNanoUsd(nanoUsd: bigint): number {
  return Number(nanoUsd) / Number(nanoUsdPerUsd);
}

/** Rounded half up to `decimals` places (at most nine), as the budget endpoint and header report it. */
export function roundedUsd(nanoUsd: bigint, decimals = 6): number {
  const step = 10n ** BigInt(9 - decimals);
  const negative = nanoUsd < 0n;
  const magnitude = negative ? -nanoUsd : nanoUsd;
  const steps = (magnitude + step / 2n) / step;
  const value = Number(steps) / 10 ** decimals;
  return negative ? -value : value;
}
