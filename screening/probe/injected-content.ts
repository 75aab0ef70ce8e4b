// Scenario content the policy carried in: fingerprints of any scenario (screening/) found in
// what the policy sent the models and absent from everything the probe sent the policy.
import type { ScenarioFingerprints } from '../fingerprint-schema.ts';
import { findFingerprints, indexFingerprints } from '../fingerprint-index.ts';
import { wordTokens } from '../word-tokens.ts';
import { injectedKinds, type ScenarioProbe } from './probe-verdict.ts';

const maxHits = 20;

export function injectedContent(
  fingerprints: ScenarioFingerprints,
  sentToModels: string,
  givenToPolicy: string,
): ScenarioProbe['injected'] {
  const given = ` ${wordTokens(givenToPolicy).join(' ')} `;
  const found = new Map<string, ScenarioProbe['injected'][number]>();
  for (const hit of findFingerprints(indexFingerprints(fingerprints), wordTokens(sentToModels))) {
    const { fingerprint } = hit;
    if (
      !injectedKinds.includes(fingerprint.kind) ||
      found.has(fingerprint.text) ||
      given.includes(` ${fingerprint.text} `)
    )
      continue;
    found.set(fingerprint.text, {
      scenario: fingerprint.scenario,
      kind: fingerprint.kind,
      display: fingerprint.display.slice(0, 120),
    });
    if (found.size >= maxHits) break;
  }
  return [...found.values()];
}
