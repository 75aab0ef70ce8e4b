// What a policy-driven run needs of a stored pack: its policy (by kind) and its SKILL.md, read by
// hash and verified on the way (through the shared blob store, so a sandbox host other than the one that
// fetched the pack finds it). Scenario runs and the pre-evaluation probe read packs this one way.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ApplicationFailure } from '@temporalio/common';
import type { ArtifactRef } from '../contracts/artifact.ts';
import type { PackRef } from '../contracts/results.ts';
import { failureTypes, packFailureTypes } from '../contracts/failure-types.ts';
import { canonicalPackSchema } from '../packs/canonical-pack.ts';
import { skillFile } from '../packs/pack-format.ts';
import type { PolicySource } from './agent-environment.ts';
import { sharedBlobStore } from '../common/store/open-blob-store.ts';
import { BlobCorruptError, BlobMissingError } from '../common/store/blob-store.ts';

/**
 * The verified bytes of an artifact: from the shared blob store when it holds the hash (a pack or
 * bundle stored by fetchPack on any host), else from the file the reference names (artifacts not yet
 * in the store). Either way a mismatch is `artifact_corrupt`, naming the hash, and no bytes.
 */
export async function readVerified(ref: ArtifactRef): Promise<Buffer> {
  const store = sharedBlobStore();
  if (await store.has(ref)) {
    try {
      // No tighter bound than reading the file whole, as before: the callers' artifacts are bounded where written.
      return await store.get(ref, { maxBytes: Number.MAX_SAFE_INTEGER });
    } catch (error) {
      if (error instanceof BlobCorruptError)
        throw ApplicationFailure.create({
          type: failureTypes.artifactCorrupt,
          message: error.message,
          nonRetryable: true,
        });
      if (!(error instanceof BlobMissingError)) throw error;
    }
  }
  const bytes = await readFile(ref.path);
  if (createHash('sha256').update(bytes).digest('hex') !== ref.sha256) {
    throw ApplicationFailure.create({
      type: failureTypes.artifactCorrupt,
      message: `${ref.path} does not match its recorded sha256 ${ref.sha256}`,
      nonRetryable: true,
    });
  }
  return bytes;
}

export async function policyOf(pack: PackRef): Promise<{ policy: PolicySource; skill: string | undefined }> {
  const { files } = canonicalPackSchema.parse(JSON.parse((await readVerified(pack.canonical)).toString('utf8')));
  const { [skillFile]: skill, ...policyFiles } = files;
  if (pack.kind === 'typescript' && pack.bundle)
    return { policy: { kind: 'typescript', bundleCode: (await readVerified(pack.bundle)).toString('utf8') }, skill };
  if (pack.kind === 'python' || pack.kind === 'data') return { policy: { kind: pack.kind, files: policyFiles }, skill };
  throw ApplicationFailure.create({
    type: packFailureTypes.invalid,
    message:
      'the pack has no single entry (policy.ts / policy.py / policy.json); pre-evaluation should have rejected it',
    nonRetryable: true,
  });
}
