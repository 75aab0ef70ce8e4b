// Gathers the spec manifest of an evaluation on the worker that aggregates it: the scenario content
// hashes the run recorded, the image ids this worker's sandboxes use, the agent's pinned version,
// the price table and cap it charged by.
import type Docker from 'dockerode';
import type { ScenarioResult } from '../contracts/results.ts';
import type { SpecManifest } from '../contracts/spec-manifest.ts';
import { buildSpecManifest, specManifestHash } from '../catalog/spec-manifest.ts';
import { readHermesLock } from '../infra/hermes-wheelhouse.ts';

export interface ManifestSources {
  docker: Docker;
  baseImageTag: string;
  policyImage: string;
  sidecarImage?: string;
}

/** An image's id (sha256 of its config): the same tag rebuilt differently gets a different id. */
async function imageId(docker: Docker, tag: string): Promise<string> {
  try {
    return (await docker.getImage(tag).inspect()).Id;
  } catch {
    // Recorded, not hidden: a manifest with a missing image never matches a complete one.
    return `missing:${tag}`;
  }
}

async function agentVersion(agent: string): Promise<string> {
  if (agent !== 'hermes') return 'builtin';
  const { hermesVersion, lockHash } = await readHermesLock();
  return `hermes-agent ${hermesVersion} (lock ${lockHash})`;
}

export async function gatherSpecManifest(
  sources: ManifestSources,
  input: {
    agent: string;
    scenarioSpec?: number | null;
    perScenario: readonly ScenarioResult[];
    pricing: { priceTableHash: string };
    capUsd: number;
  },
): Promise<{ specManifest: SpecManifest; manifestHash: string }> {
  const roles: [string, string | undefined][] = [
    ['base', sources.baseImageTag],
    ['policy', sources.policyImage],
    ['sidecar', sources.sidecarImage],
  ];
  const images: Record<string, string> = {};
  for (const [role, tag] of roles) if (tag) images[role] = await imageId(sources.docker, tag);
  const specManifest = buildSpecManifest({
    scenarioSpec: input.scenarioSpec ?? null,
    scenarios: input.perScenario.map((s) => ({ name: s.name, contentHash: s.scenarioHash ?? null })),
    images,
    agent: { name: input.agent, version: await agentVersion(input.agent) },
    priceTableHash: input.pricing.priceTableHash,
    capUsd: input.capUsd,
  });
  return { specManifest, manifestHash: specManifestHash(specManifest) };
}
