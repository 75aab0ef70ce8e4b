// The scenario's hidden content for the run-time injection check (gateway/injection/): the
// fingerprints screening builds from its tests, solution and fixtures (test names and strings,
// expected values, solution lines, fixture values — the kinds the probe also counts as injected),
// read on the sandbox host from the scenario folder it already has. Nothing of it crosses Temporal:
// the activity's input names the scenario, the pieces stay in this worker process.
import path from 'node:path';
import type { HiddenPiece } from '../gateway/injection/injection-guard.ts';
import { injectedKinds } from '../screening/probe/probe-verdict.ts';
import type { ScenarioFingerprints } from '../screening/fingerprint-schema.ts';
import { cachedScenarioFingerprints } from './fingerprint-cache.ts';

const everyScenario = new WeakMap<ScenarioFingerprints, readonly HiddenPiece[]>();

/**
 * The hidden pieces of every scenario in a fingerprint set (the probe's check: a policy may carry in any
 * scenario's content), the same array for the same set, so the guard's index over it is built once.
 */
export function hiddenPiecesOfAll(fingerprints: ScenarioFingerprints): readonly HiddenPiece[] {
  let pieces = everyScenario.get(fingerprints);
  if (!pieces) {
    pieces = fingerprints.fingerprints
      .filter((fingerprint) => injectedKinds.includes(fingerprint.kind))
      .map(({ text, kind, scenario, display }) => ({ text, kind, scenario, display }));
    everyScenario.set(fingerprints, pieces);
  }
  return pieces;
}

const cache = new Map<string, Promise<readonly HiddenPiece[]>>();
// A worker runs the scenarios of a few folders (the active set, a run's own): a bound keeps ad-hoc folders from
// growing the map.
const maxCachedScenarios = 256;

/**
 * The hidden pieces of the scenario in `scenarioDir`, built with its siblings (the folder's other
 * scenarios), so that what several scenarios share counts as boilerplate, as the static scan has it.
 */
export function hiddenContentOf(scenarioDir: string, scenario: string): Promise<readonly HiddenPiece[]> {
  const key = `${path.resolve(scenarioDir)}\0${scenario}`;
  let pieces = cache.get(key);
  if (!pieces) {
    pieces = cachedScenarioFingerprints(path.dirname(path.resolve(scenarioDir))).then((fingerprints) =>
      fingerprints.fingerprints
        .filter((fingerprint) => fingerprint.scenario === scenario && injectedKinds.includes(fingerprint.kind))
        .map(({ text, kind, display }) => ({ text, kind, scenario, display })),
    );
    if (cache.size >= maxCachedScenarios) cache.delete(cache.keys().next().value!);
    cache.set(key, pieces);
    pieces.catch(() => cache.delete(key));
  }
  return pieces;
}
