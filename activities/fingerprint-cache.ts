// Scenario fingerprints change only with the scenarios: built once per worker process and
// directory, shared by the static scan (preEval) and the probe (probePolicy).
import { createHash } from 'node:crypto';
import { buildScenarioFingerprints, type ScenarioFingerprints } from '../screening/scenario-fingerprints.ts';

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

const merged = new Map<string, Promise<ScenarioFingerprints>>();
// Directory sets seen by one worker are few (the active set, a run's own directory); a bound keeps a
// stream of ad-hoc directories from growing the map.
const maxMergedSets = 16;

/**
 * The fingerprints of every scenario in these directories, as one set (each directory once, in
 * the order given). The digest is one directory's own, or over all of theirs when there are several.
 * The same object for the same directories, so the index built over it (fingerprint-index.ts,
 * cached by object) is built once: the probe looked it up afresh on every call.
 */
export function mergedScenarioFingerprints(dirs: readonly string[]): Promise<ScenarioFingerprints> {
  const unique = [...new Set(dirs)];
  const key = unique.join('\0');
  let set = merged.get(key);
  if (!set) {
    set = mergeFingerprints(unique);
    if (merged.size >= maxMergedSets) merged.delete(merged.keys().next().value!);
    merged.set(key, set);
    set.catch(() => merged.delete(key));
  }
  return set;
}

async function mergeFingerprints(dirs: readonly string[]): Promise<ScenarioFingerprints> {
  const all = await Promise.all(dirs.map(cachedScenarioFingerprints));
  if (all.length === 1) return all[0]!;
  const digest = createHash('sha256')
    .update(all.map((set) => set.digest).join('\0'))
    .digest('hex');
  return {
    version: 1,
    digest,
    scenarios: all.flatMap((set) => set.scenarios),
    skipped: all.flatMap((set) => set.skipped),
    fingerprints: all.flatMap((set) => set.fingerprints),
  };
}
