// pytest's count of a scenario's tests, kept by scenario content hash and image id: collection starts
// a container, so it runs once per scenario version and image, not once per evaluation. A file that
// does not parse is ignored and collected again.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { testCountCacheFile } from '../common/data-layout.ts';
import { writeFileAtomic } from '../common/atomic-write.ts';
import type { CollectedTests } from './collect-tests.ts';

const cachedCountSchema = z.object({
  count: z.number().int().nonnegative(),
  source: z.enum(['pytest', 'static']),
  notes: z.array(z.string()),
  collectedAt: z.string(),
});
export type CachedTestCount = z.infer<typeof cachedCountSchema>;

const cacheFileSchema = z.object({ contentHash: z.string(), byImage: z.record(z.string(), cachedCountSchema) });
type CacheFile = z.infer<typeof cacheFileSchema>;

async function readCacheFile(contentHash: string): Promise<CacheFile | undefined> {
  const text = await readFile(testCountCacheFile(contentHash), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const parsed = cacheFileSchema.parse(JSON.parse(text));
    return parsed.contentHash === contentHash ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export async function readCachedTestCount(contentHash: string, imageId: string): Promise<CachedTestCount | undefined> {
  return (await readCacheFile(contentHash))?.byImage[imageId];
}

/** The newest count collected for this scenario version on any image (what `trl scenarios` shows). */
export async function latestCachedTestCount(contentHash: string): Promise<CachedTestCount | undefined> {
  const entries = Object.values((await readCacheFile(contentHash))?.byImage ?? {});
  return entries.sort((a, b) => b.collectedAt.localeCompare(a.collectedAt))[0];
}

/** Two workers writing at once may lose one entry: it is collected again next time, never wrong. */
export async function writeCachedTestCount(
  contentHash: string,
  imageId: string,
  collected: CollectedTests,
): Promise<void> {
  const current = (await readCacheFile(contentHash)) ?? { contentHash, byImage: {} };
  current.byImage[imageId] = {
    count: collected.count,
    source: collected.source,
    notes: collected.notes,
    collectedAt: new Date().toISOString(),
  };
  await writeFileAtomic(testCountCacheFile(contentHash), JSON.stringify(current, null, 2) + '\n');
}
