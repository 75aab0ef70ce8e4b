// Builds the spec manifest (contracts/spec-manifest.ts) and its hash: sha256 of its canonical JSON,
// so equal manifests hash equal whatever order their parts were gathered in.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../gateway/catalog/canonical-json.ts';
import type { DecisionParameters, SpecManifest } from '../contracts/spec-manifest.ts';

export interface ManifestParts {
  scenarioSpec: number | null;
  scenarios: { name: string; contentHash?: string | null }[];
  images: Record<string, string>;
  agent: { name: string; version: string };
  priceTableHash: string;
  capUsd: number;
  decision?: DecisionParameters | null;
}

export function buildSpecManifest(parts: ManifestParts): SpecManifest {
  const scenarios = parts.scenarios
    .map((s) => ({ name: s.name, contentHash: s.contentHash ?? null }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    version: 1,
    scenarioSpec: parts.scenarioSpec,
    scenarios,
    images: { ...parts.images },
    agent: { ...parts.agent },
    priceTableHash: parts.priceTableHash,
    capUsd: parts.capUsd,
    decision: parts.decision ?? null,
  };
}

export function specManifestHash(manifest: SpecManifest): string {
  return createHash('sha256').update(canonicalJson(manifest)).digest('hex');
}

/** The scenario part alone (spec number and content hashes), as `trl scenarios` shows it before any run. */
export function scenarioSetHash(
  scenarioSpec: number | null,
  scenarios: { name: string; contentHash?: string | null }[],
): string {
  const { scenarioSpec: spec, scenarios: sorted } = buildSpecManifest({
    scenarioSpec,
    scenarios,
    images: {},
    agent: { name: '', version: '' },
    priceTableHash: '',
    capUsd: 0,
  });
  return createHash('sha256')
    .update(canonicalJson({ scenarioSpec: spec, scenarios: sorted }))
    .digest('hex');
}

/** The same contest decided by the seat: the evaluation's manifest with the decision's parameters. */
export function withDecision(manifest: SpecManifest, decision: DecisionParameters): SpecManifest {
  return { ...manifest, decision: { ...decision } };
}

/** What differs between two manifests, one line each: why two validators' hashes disagree. */
export function manifestDifferences(left: SpecManifest, right: SpecManifest): string[] {
  const out: string[] = [];
  if (left.scenarioSpec !== right.scenarioSpec) out.push(`scenario spec ${left.scenarioSpec} ≠ ${right.scenarioSpec}`);
  const leftScenarios = new Map(left.scenarios.map((s) => [s.name, s.contentHash]));
  const rightScenarios = new Map(right.scenarios.map((s) => [s.name, s.contentHash]));
  for (const name of [...new Set([...leftScenarios.keys(), ...rightScenarios.keys()])].sort()) {
    if (!leftScenarios.has(name)) out.push(`scenario ${name} only in the second`);
    else if (!rightScenarios.has(name)) out.push(`scenario ${name} only in the first`);
    else if (leftScenarios.get(name) !== rightScenarios.get(name)) out.push(`scenario ${name} has different content`);
  }
  for (const role of [...new Set([...Object.keys(left.images), ...Object.keys(right.images)])].sort()) {
    if (left.images[role] !== right.images[role]) out.push(`image ${role} differs`);
  }
  if (canonicalJson(left.agent) !== canonicalJson(right.agent))
    out.push(`agent ${left.agent.name} ${left.agent.version} ≠ ${right.agent.name} ${right.agent.version}`);
  if (left.priceTableHash !== right.priceTableHash) out.push('price table differs');
  if (left.capUsd !== right.capUsd) out.push(`cap $${left.capUsd} ≠ $${right.capUsd}`);
  if (canonicalJson(left.decision) !== canonicalJson(right.decision)) out.push('decision parameters differ');
  return out;
}
