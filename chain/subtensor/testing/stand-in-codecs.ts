// Tests only: the smallest codec look-alikes the client reads (numbers, flags, text, options), and
// the weight hyperparameters of a spec-424 subnet with commit-reveal on, for ApiPromise stand-ins.
export const number = (value: number) => ({
  toBigInt: () => BigInt(value),
  toNumber: () => value,
  toString: () => String(value),
});
export const flag = (value: boolean) => ({ isTrue: value });
export const text = (value: string) => ({ toString: () => value });
export const option = (value: unknown) =>
  value === undefined ? { isSome: false } : { isSome: true, unwrap: () => value };

/** `SubtensorModule` storage getters as `api.at(…).query` exposes them (async, codec-like values). */
export function commitRevealSettingsStorage(settings: {
  revealPeriodEpochs: number;
  commitRevealVersion: () => number;
}) {
  const storage = (value: () => unknown) => async () => value();
  return {
    tempo: storage(() => number(360)),
    weightsSetRateLimit: storage(() => number(0)),
    weightsVersionKey: storage(() => number(7)),
    minAllowedWeights: storage(() => number(1)),
    maxWeightsLimit: storage(() => number(65535)),
    revealPeriodEpochs: storage(() => number(settings.revealPeriodEpochs)),
    kappa: storage(() => number(32767)),
    commitRevealWeightsEnabled: storage(() => flag(true)),
    commitRevealWeightsVersion: storage(() => number(settings.commitRevealVersion())),
  };
}
