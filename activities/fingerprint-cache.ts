// Scenario fingerprints change only with the scenarios: built once per worker process and
// directory, shared by the static scan (preEval) and the probe (probePolicy).
import { createHash } from 'node:crypto';
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

/**
 * The fingerprints of every scenario in these directories, as one set (each directory once, in
 * the order given). The digest is one directory's own, or over all of theirs when there are several.
 */
export async function mergedScenarioFingerprints(dirs: readonly string[]): Promise<ScenarioFingerprints> {
  const all = await Promise.all([...new Set(dirs)].map(cachedScenarioFingerprints));
  const digest = all.length === 1 ? all[0]!.digest : createHash('sha256').update(all.map((set) => set.digest).join('\0')).digest('hex');
  return { version: 1, digest, scenarios: all.flatMap((set) => set.scenarios), skipped: all.flatMap((set) => set.skipped), fingerprints: all.flatMap((set) => set.fingerprints) };
}
