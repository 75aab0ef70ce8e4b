// A drifting upstream, for tests and calibration of fair pairing: a model answers worse the more
// calls the fleet has answered for it (a provider degrading over the hour). Keyed by the sequence of
// calls, not the clock, so a run is reproducible from its order of calls; without a `drift` entry
// in the model's sim profile nothing changes.
import type { SimProfile } from '../gateway/catalog/allowlist.ts';

export type ModelDrift = NonNullable<SimProfile['drift']>;

/** The share of the profile's competence left after `callsBefore` calls: 1 − loss × calls, not below the floor. */
export function competenceScale(drift: ModelDrift | undefined, callsBefore: number): number {
  if (!drift || callsBefore <= 0) return 1;
  return Math.max(drift.floor ?? 0, 1 - drift.competenceLossPerCall * callsBefore);
}

/** Counts the calls each model has been asked, in the order they arrive (one per fleet process). */
export function createCallCounter(): (modelId: string) => number {
  const calls = new Map<string, number>();
  return (modelId) => {
    const before = calls.get(modelId) ?? 0;
    calls.set(modelId, before + 1);
    return before;
  };
}
