// Scenario fingerprints change only with the scenarios: built once per worker process and
// directory, shared by the static scan (preEval) and the probe (probePolicy).
import { buildScenarioFingerprints, type ScenarioFingerprints } from '../packs/preeval/scenario-fingerprints.ts';

const cache = new Map<string, Promise<ScenarioFingerprints>>();

export function cachedScenarioFingerprints(dir: string): Promise<ScenarioFingerprints> {
  let cached = cache.get(dir);
  if (!cached) {
    cached = buildScenarioFingerprints(dir);
    cache.set(dir, cached);
    cached.catch(() => cache.delete(dir));
  }
  return cached;
}
