// The canonical JSON form of a pack and its identity (sha256 of that JSON: sorted keys, no whitespace).
import { createHash } from 'node:crypto';
import { z } from 'zod';

export const canonicalPackSchema = z.object({
  schema: z.literal(1),
  manifest: z.record(z.string(), z.unknown()),
  files: z.record(z.string(), z.string()),
});
export type CanonicalPack = z.infer<typeof canonicalPackSchema>;

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export function packHash(pack: CanonicalPack): string {
  return sha256Hex(canonicalJson(pack));
}
