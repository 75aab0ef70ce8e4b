// The probe's verdicts, kept by everything they depend on. The probe is deterministic for a pack
// (and the sandbox image its kind runs in), the probed scenarios' contents, the fingerprints it
// searches, Hermes' opening and this code, so an incumbent probed again on every challenge runs its
// conversations once. A file per key, written atomically; an entry that does not read, parse or
// match its key is a miss and is probed again, never trusted.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { writeFileAtomic } from '../../common/atomic-write.ts';
import { probeCacheFile } from '../../common/data-layout.ts';
import { log } from '../../common/log.ts';
import { probeLimits } from '../../contracts/probe.ts';
import { provenanceCoverageThreshold, provenanceMinimumUnits } from '../../contracts/provenance.ts';
import { rejectionSchema } from '../../contracts/results.ts';
import { minInjectedFingerprints, type ProbeReport } from './probe-verdict.ts';

/** Bump when what the probe sends, answers or concludes changes (conversation, bland upstream, injection check
 * (gateway/injection/),
 * verdict). */
// 3: provenance of actions (an authored tool call rejects whatever the word coverage).
// 4: tool results from the scenario's built image (listing with real sizes, heads), else the build context.
// 5: escape sequences separate words at any level of escaping (an adviser prompt quoting the conversation
//    as JSON no longer shows pieces the agent's own text did not).
export const probeVersion = 5;

export const probeCacheKeySchema = z.object({
  packHash: z.string().min(1),
  /** sha256 of what runs: the TypeScript bundle, or the Python / data files. */
  policyHash: z.string().min(1),
  /** The image the policy runs in (its tag is content-addressed). */
  sandboxImage: z.string(),
  /** The probed scenarios in order, each with its content hash (catalog/scenario-content-hash.ts) and where its tool
   * results come from (`image <id>` or `build context`: screening/probe/probe-environment.ts). */
  scenarios: z.array(z.object({ name: z.string(), contentHash: z.string(), environment: z.string().optional() })),
  /** Digest of the fingerprints searched for injected content (every scenario of the probed scenarios' directories). */
  fingerprintsDigest: z.string(),
  /** sha256 of agents/hermes-opening.json. */
  openingHash: z.string(),
});
export type ProbeCacheKey = z.infer<typeof probeCacheKeySchema>;

/** The key's hash, with the probe's version and parameters folded in; fields in a fixed order. */
export function probeCacheKeyHash(key: ProbeCacheKey): string {
  const parameters = [
    probeLimits.turns,
    probeLimits.conversationSec,
    provenanceCoverageThreshold,
    provenanceMinimumUnits,
    minInjectedFingerprints,
  ];
  const material = [
    probeVersion,
    parameters,
    key.packHash,
    key.policyHash,
    key.sandboxImage,
    key.scenarios.map((s) => [s.name, s.contentHash, s.environment ?? '']),
    key.fingerprintsDigest,
    key.openingHash,
  ];
  return createHash('sha256').update(JSON.stringify(material)).digest('hex');
}

const reportSchema = z.object({
  verdict: z.enum(['pass', 'reject']),
  reasons: z.array(rejectionSchema),
  scenarios: z.array(
    z.object({
      scenario: z.string(),
      turns: z.number().int().nonnegative(),
      provenance: z.object({
        coverage: z.number(),
        units: z.number(),
        coveredUnits: z.number(),
        actionCoverage: z.number().optional(),
        actions: z.number().int().nonnegative().optional(),
        coveredActions: z.number().int().nonnegative().optional(),
        turns: z.number(),
        uncovered: z.array(z.string()),
      }),
      injected: z.array(z.object({ scenario: z.string(), kind: z.string(), display: z.string() })),
      environment: z.string().optional(),
      error: z.string().optional(),
    }),
  ),
});

const entrySchema = z.object({
  probeVersion: z.literal(probeVersion),
  keyHash: z.string(),
  key: probeCacheKeySchema,
  /** When and by which run the conversations were played. */
  probedAt: z.string(),
  probedBy: z.string(),
  report: reportSchema,
});

/** An entry larger than this is not one the probe wrote (reports are bounded): a miss. */
const maxEntryBytes = 8 * 1024 * 1024;

/** Where the verdict came from, for the report: this run, or an earlier one (`cached`). */
export interface ProbeOrigin {
  probedAt: string;
  probedBy: string;
}

export class FileProbeCache {
  constructor(private readonly fileOf: (packHash: string, keyHash: string) => string = probeCacheFile) {}

  /** The stored verdict for this key, marked `cached`; undefined when there is none to trust. */
  async get(key: ProbeCacheKey): Promise<ProbeReport | undefined> {
    const keyHash = probeCacheKeyHash(key);
    const file = this.fileOf(key.packHash, keyHash);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        log.warn('probe_cache_unreadable', { file, error: (error as Error).message });
      return undefined;
    }
    let parsed: z.infer<typeof entrySchema> | undefined;
    try {
      const checked = text.length <= maxEntryBytes ? entrySchema.safeParse(JSON.parse(text)) : undefined;
      parsed = checked?.success ? checked.data : undefined;
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.keyHash !== keyHash || probeCacheKeyHash(parsed.key) !== keyHash) {
      log.warn('probe_cache_entry_ignored', {
        file,
        reason: 'the entry does not parse or was written for another key; the pack is probed again',
      });
      return undefined;
    }
    return { ...parsed.report, cached: { probedAt: parsed.probedAt, probedBy: parsed.probedBy, keyHash } };
  }

  async set(key: ProbeCacheKey, report: ProbeReport, origin: ProbeOrigin): Promise<void> {
    const keyHash = probeCacheKeyHash(key);
    const { cached: _cached, ...stored } = report;
    const entry: z.infer<typeof entrySchema> = { probeVersion, keyHash, key, ...origin, report: stored };
    await writeFileAtomic(this.fileOf(key.packHash, keyHash), `${JSON.stringify(entry, null, 2)}\n`);
  }
}

/**
 * A verdict worth keeping: every probed scenario's conversation ran to its end. One cut short (an
 * error, a timeout, the activity cancelled) may be the machine's doing, so it is probed again next time.
 */
export function isReusableReport(key: ProbeCacheKey, report: ProbeReport): boolean {
  return (
    report.scenarios.length === key.scenarios.length && report.scenarios.every((probe) => probe.error === undefined)
  );
}

/** The cached verdict for `key`, else the probe's (stored when reusable; a failed write only costs the next run a
 * probe). */
export async function probeOnce(
  cache: FileProbeCache,
  key: ProbeCacheKey,
  origin: ProbeOrigin,
  probe: () => Promise<ProbeReport>,
): Promise<ProbeReport> {
  const hit = await cache.get(key);
  if (hit) return hit;
  const report = await probe();
  if (isReusableReport(key, report)) {
    await cache
      .set(key, report, origin)
      .catch((error: Error) => log.warn('probe_cache_write_failed', { packHash: key.packHash, error: error.message }));
  }
  return report;
}
