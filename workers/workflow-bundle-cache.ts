// Workflow bundles kept between processes. `trl worker`, `trl up`, `trl replay` and the suite's worker processes each
// ran webpack over workflows/ again (3–5 CPU-s) on code that had not changed. A bundle is reused only when every
// module in it (the bundle names each one) still hashes as it did when it was built, for the same entry files and the
// same package-lock.json; anything else, or a cache entry that cannot be read, bundles afresh.
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { writeFileAtomic } from '../common/atomic-write.ts';
import { repoRoot, workflowBundleCacheDir } from '../common/data-layout.ts';

/** Entries kept, the last used: the project's workflows, and a few others replayed against (`trl replay --workflows`). */
const keptEntries = 4;

interface CacheEntry {
  /** Each module's absolute path and the sha256 of its bytes when the bundle was built. */
  modules: Record<string, string>;
  code: string;
  sourceMap: string;
}

/** The bundle for these entry files: the cached one while its modules are unchanged, else `build`'s, then kept. */
export async function cachedWorkflowBundle(
  entries: readonly string[],
  build: () => Promise<WorkflowBundleWithSourceMap>,
  folder = workflowBundleCacheDir,
): Promise<WorkflowBundleWithSourceMap> {
  const file = path.join(folder, `${await cacheKey(entries)}.json`);
  const cached = await readEntry(file);
  if (cached && (await unchanged(cached.modules))) {
    // Used: the last to go when other entries are kept (a replayed variant must not push out the workers' bundle).
    const now = new Date();
    await utimes(file, now, now).catch(() => undefined);
    return { code: cached.code, sourceMap: cached.sourceMap };
  }
  // Modules are named relative to the directory webpack ran in, this process's.
  const context = process.cwd();
  const bundle = await build();
  const modules = await hashModules(bundledModules(bundle.code).map((name) => path.resolve(context, name)));
  if (modules) await keep(file, { modules, code: bundle.code, sourceMap: bundle.sourceMap }, folder);
  return bundle;
}

/** The modules a development-mode webpack bundle holds, as it names them (`./contracts/seat.ts`); webpack's own
 * placeholders for ignored modules (`?2065`) are not files. */
export function bundledModules(code: string): string[] {
  const names = new Set<string>();
  for (const match of code.matchAll(/^\/\*\*\*\/ "([^"\n]+)"$/gm)) if (!match[1]!.startsWith('?')) names.add(match[1]!);
  return [...names];
}

async function cacheKey(entries: readonly string[]): Promise<string> {
  const lock = await readFile(path.join(repoRoot, 'package-lock.json')).catch(() => Buffer.alloc(0));
  return createHash('sha256')
    .update(JSON.stringify({ entries: entries.map((entry) => path.resolve(entry)), node: process.version }))
    .update(lock)
    .digest('hex')
    .slice(0, 32);
}

/** Each file's sha256, or undefined when one cannot be read (then the bundle is not kept: it could not be checked). */
async function hashModules(files: string[]): Promise<Record<string, string> | undefined> {
  if (files.length === 0) return undefined;
  const hashes: Record<string, string> = {};
  for (const file of files) {
    const bytes = await readFile(file).catch(() => undefined);
    if (!bytes) return undefined;
    hashes[file] = createHash('sha256').update(bytes).digest('hex');
  }
  return hashes;
}

async function unchanged(modules: Record<string, string>): Promise<boolean> {
  const now = await hashModules(Object.keys(modules));
  return now !== undefined && Object.entries(modules).every(([file, hash]) => now[file] === hash);
}

async function readEntry(file: string): Promise<CacheEntry | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<CacheEntry>;
    const valid =
      typeof parsed.code === 'string' &&
      parsed.code.length > 0 &&
      typeof parsed.sourceMap === 'string' &&
      typeof parsed.modules === 'object' &&
      parsed.modules !== null &&
      Object.keys(parsed.modules).length > 0;
    return valid ? (parsed as CacheEntry) : undefined;
  } catch {
    return undefined;
  }
}

/** Written atomically, so a process reading at the same time sees the old entry or the new one; the oldest
 * entries beyond `keptEntries` go. A cache that cannot be written costs the next process a bundle, nothing else. */
async function keep(file: string, entry: CacheEntry, folder: string): Promise<void> {
  try {
    await writeFileAtomic(file, JSON.stringify(entry));
    const names = (await readdir(folder)).filter((name) => name.endsWith('.json'));
    const aged = await Promise.all(
      names.map(async (name) => ({
        name,
        mtimeMs: await stat(path.join(folder, name)).then(
          (s) => s.mtimeMs,
          () => 0,
        ),
      })),
    );
    for (const old of aged.sort((a, b) => b.mtimeMs - a.mtimeMs).slice(keptEntries))
      await rm(path.join(folder, old.name), { force: true });
  } catch {
    // Not kept: the next process bundles again.
  }
}
