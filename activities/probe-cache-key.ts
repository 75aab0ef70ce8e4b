// What a probe verdict depends on, read from the pack, the probed scenarios and the worker: the key
// under which screening/probe/probe-cache.ts keeps it.
import type { ScenarioDescriptor } from '../contracts/results.ts';
import { scenarioContentHash } from '../catalog/scenario-content-hash.ts';
import { hermesOpeningHash } from '../agents/hermes-opening.ts';
import { canonicalJson, sha256Hex } from '../packs/canonical-pack.ts';
import type { ProbeCacheKey } from '../screening/probe/probe-cache.ts';
import type { PolicySource } from './agent-environment.ts';

/** sha256 of what runs in the sandbox: the bundle, or the files (SKILL.md is not the policy's). */
export function policySourceHash(policy: PolicySource): string {
  return sha256Hex(
    policy.kind === 'typescript'
      ? `typescript\0${policy.bundleCode}`
      : `${policy.kind}\0${canonicalJson(policy.files)}`,
  );
}

export async function probeCacheKeyOf(input: {
  packHash: string;
  policy: PolicySource;
  /** The policy sandbox image (TypeScript) or the sidecar image (Python, data) this worker runs the pack in. */
  sandboxImage: string;
  scenarios: readonly ScenarioDescriptor[];
  /** The digest of the fingerprints the probe searches (activities/fingerprint-cache.ts). */
  fingerprintsDigest: string;
  /** Per scenario, where the probe's tool results come from: `image <id>` or `build context`. */
  environments?: readonly string[];
}): Promise<ProbeCacheKey> {
  const scenarios = await Promise.all(
    input.scenarios.map(async (s, i) => ({
      name: s.name,
      contentHash: await scenarioContentHash(s.dir),
      ...(input.environments?.[i] !== undefined ? { environment: input.environments[i] } : {}),
    })),
  );
  return {
    packHash: input.packHash,
    policyHash: policySourceHash(input.policy),
    sandboxImage: input.sandboxImage,
    scenarios,
    fingerprintsDigest: input.fingerprintsDigest,
    openingHash: hermesOpeningHash(),
  };
}
