// Judge verdicts by (pack hash, model, prompt version): the same pack is never paid for twice. A file
// per key, written atomically (temp file + rename), so a crash leaves either the old entry or the new
// one; an unreadable or mismatched entry is a miss, never a wrong verdict.
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../common/atomic-write.ts';
import path from 'node:path';
import { z } from 'zod';
import { sha256Hex } from '../packs/canonical-pack.ts';
import { judgeFlagTypes } from './judge-answer-schema.ts';

export interface JudgeCacheKey {
  packHash: string;
  model: string;
  promptVersion: string;
}

export const cachedVerdictSchema = z.object({
  verdict: z.enum(['pass', 'reject']),
  flags: z.array(z.object({ type: z.enum(judgeFlagTypes), evidence: z.string(), file: z.string().optional() })),
  summary: z.string(),
  model: z.string(),
  promptVersion: z.string(),
  costHint: z.unknown().optional(),
});
/** A verdict as stored: everything but `cached`, which says how this call got it. */
export type CachedVerdict = z.infer<typeof cachedVerdictSchema>;

export interface JudgeCache {
  get(key: JudgeCacheKey): Promise<CachedVerdict | undefined>;
  set(key: JudgeCacheKey, verdict: CachedVerdict): Promise<void>;
}

const entrySchema = z.object({
  key: z.object({ packHash: z.string(), model: z.string(), promptVersion: z.string() }),
  verdict: cachedVerdictSchema,
});

function sameKey(a: JudgeCacheKey, b: JudgeCacheKey): boolean {
  return a.packHash === b.packHash && a.model === b.model && a.promptVersion === b.promptVersion;
}

/** A file name safe for any model id: the hash of the whole key. */
export function judgeCacheFileName(key: JudgeCacheKey): string {
  return `${sha256Hex(JSON.stringify([key.packHash, key.model, key.promptVersion]))}.json`;
}

export class FileJudgeCache implements JudgeCache {
  constructor(readonly dir: string) {}

  async get(key: JudgeCacheKey): Promise<CachedVerdict | undefined> {
    let text: string;
    try {
      text = await readFile(path.join(this.dir, judgeCacheFileName(key)), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return undefined;
    }
    const parsed = entrySchema.safeParse(raw);
    return parsed.success && sameKey(parsed.data.key, key) ? parsed.data.verdict : undefined;
  }

  async set(key: JudgeCacheKey, verdict: CachedVerdict): Promise<void> {
    await writeFileAtomic(
      path.join(this.dir, judgeCacheFileName(key)),
      `${JSON.stringify({ key, verdict }, null, 2)}\n`,
    );
  }
}

/** For tests and one-off runs: forgets everything when the process ends. */
export class MemoryJudgeCache implements JudgeCache {
  private readonly entries = new Map<string, CachedVerdict>();

  async get(key: JudgeCacheKey): Promise<CachedVerdict | undefined> {
    const found = this.entries.get(judgeCacheFileName(key));
    return found && structuredClone(found);
  }

  async set(key: JudgeCacheKey, verdict: CachedVerdict): Promise<void> {
    this.entries.set(judgeCacheFileName(key), structuredClone(verdict));
  }

  get size(): number {
    return this.entries.size;
  }
}
