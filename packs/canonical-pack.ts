// The canonical JSON form of a pack (format 1, the live Season 2 format) and its identity: the
// sha256 of that JSON with sorted keys and no whitespace. A directory is converted to this form.
import { createHash } from 'node:crypto';
import { z } from 'zod';

export const canonicalPackSchema = z.strictObject({
  schema_version: z.literal(1, { message: 'set "schema_version": 1 (the only pack format)' }),
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

export function packFromFiles(files: Record<string, string>): CanonicalPack {
  return { schema_version: 1, files };
}
