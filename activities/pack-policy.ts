// What a policy-driven run needs of a stored pack: its policy (by kind) and its SKILL.md, read by
// hash and verified on the way. Scenario runs and the pre-evaluation probe read packs this one way.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ApplicationFailure } from '@temporalio/common';
import type { ArtifactRef } from '../contracts/artifact.ts';
import type { PackRef } from '../contracts/results.ts';
import { failureTypes, packFailureTypes } from '../contracts/failure-types.ts';
import { canonicalPackSchema } from '../packs/canonical-pack.ts';
import { skillFile } from '../packs/pack-format.ts';
import type { PolicySource } from './agent-environment.ts';

export async function readVerified(ref: ArtifactRef): Promise<Buffer> {
  const bytes = await readFile(ref.path);
  if (createHash('sha256').update(bytes).digest('hex') !== ref.sha256) {
    throw ApplicationFailure.create({ type: failureTypes.artifactCorrupt, message: `${ref.path} does not match its recorded sha256`, nonRetryable: true });
  }
  return bytes;
}

export async function policyOf(pack: PackRef): Promise<{ policy: PolicySource; skill: string | undefined }> {
  const { files } = canonicalPackSchema.parse(JSON.parse((await readVerified(pack.canonical)).toString('utf8')));
  const { [skillFile]: skill, ...policyFiles } = files;
  if (pack.kind === 'typescript' && pack.bundle) return { policy: { kind: 'typescript', bundleCode: (await readVerified(pack.bundle)).toString('utf8') }, skill };
  if (pack.kind === 'python' || pack.kind === 'data') return { policy: { kind: pack.kind, files: policyFiles }, skill };
  throw ApplicationFailure.create({ type: packFailureTypes.invalid, message: 'the pack has no single entry (policy.ts / policy.py / policy.json); pre-evaluation should have rejected it', nonRetryable: true });
}
