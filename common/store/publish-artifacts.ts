// A sandbox host's artifacts into the shared store. With a bucket (TRL_STORE=s3) every artifact a
// scenario's result references (outputs, logs, call and turn logs, the verifier's report) is put
// there by hash, so any machine reads it — a tape for `trl rerun --tape`, a report — after its
// host is gone. On the local file store they stay where they were written: the same disk, no
// second copy. Publishing is best effort: a failure is logged and the file stays on its host,
// where readers look next (activities/pack-policy.ts readVerified); it never fails a paid run.
import { artifactRefSchema, type ArtifactRef } from '../../contracts/artifact.ts';
import { log } from '../log.ts';
import type { BlobStore } from './blob-store.ts';

const maxDepth = 8;
const maxRefs = 1_000;

/** The artifact references inside a result (any depth up to 8, at most 1,000, one per hash). */
export function artifactRefsIn(value: unknown): ArtifactRef[] {
  const found = new Map<string, ArtifactRef>();
  const walk = (node: unknown, depth: number) => {
    if (found.size >= maxRefs || depth > maxDepth || node === null || typeof node !== 'object') return;
    const ref = artifactRefSchema.safeParse(node);
    if (ref.success) {
      found.set(ref.data.sha256, ref.data);
      return;
    }
    for (const child of Array.isArray(node) ? node : Object.values(node)) walk(child, depth + 1);
  };
  walk(value, 0);
  return [...found.values()];
}

export interface PublishReport {
  published: number;
  alreadyStored: number;
  /** Hashes left only on this host, with why. */
  failed: { sha256: string; reason: string }[];
}

export async function publishArtifacts(store: BlobStore, result: unknown): Promise<PublishReport> {
  const report: PublishReport = { published: 0, alreadyStored: 0, failed: [] };
  if (store.kind === 'file') return report;
  for (const ref of artifactRefsIn(result)) {
    try {
      if (await store.has(ref)) {
        report.alreadyStored += 1;
        continue;
      }
      const stored = await store.putFile(ref.path);
      // A file changed after its reference was taken is stored under its new hash, which no one asks for.
      if (stored.sha256 !== ref.sha256)
        report.failed.push({
          sha256: ref.sha256,
          reason: `${ref.path} changed after it was recorded (now ${stored.sha256})`,
        });
      else report.published += 1;
    } catch (error) {
      report.failed.push({ sha256: ref.sha256, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  if (report.failed.length > 0)
    log.warn('artifacts_not_published', {
      store: store.location,
      failed: report.failed.slice(0, 10),
      count: report.failed.length,
    });
  return report;
}
