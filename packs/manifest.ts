// policy.json, checked with zod; every problem names the field and how to fix it.
import { z } from 'zod';
import { packLimits } from './limits.ts';
import type { CanonicalPack } from './canonical-pack.ts';
import type { Rejection } from '../contracts/results.ts';

export const policyManifestSchema = z.object({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'use 1-64 lowercase letters, digits and dashes'),
  version: z.string().regex(/^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/, 'use a semantic version such as 1.0.0'),
  entry: z.string().regex(/\.(ts|mts|js|mjs)$/, 'point at a .ts or .js source file of the pack'),
  sdk: z.literal(1, { message: 'set "sdk": 1 (the only policy SDK version)' }),
  description: z.string().max(2000).optional(),
}).strict();
export type PolicyManifest = z.infer<typeof policyManifestSchema>;

function sizeOf(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Pre-evaluation's structural checks. Returns every problem found, not just the first. */
export function checkPackStructure(pack: CanonicalPack): Rejection[] {
  const reasons: Rejection[] = [];
  const parsed = policyManifestSchema.safeParse(pack.manifest);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path.join('.') || '(root)';
      reasons.push({ code: 'manifest_invalid', message: `policy.json field "${field}": ${issue.message}` });
    }
  } else if (!(parsed.data.entry in pack.files)) {
    reasons.push({ code: 'entry_missing', message: `policy.json entry "${parsed.data.entry}" is not a file of the pack; add it or fix the path` });
  }
  const names = Object.keys(pack.files);
  if (names.length === 0) reasons.push({ code: 'pack_empty', message: 'the pack has no source files; add the entry file' });
  if (names.length > packLimits.maxFiles) {
    reasons.push({ code: 'too_many_files', message: `the pack has ${names.length} files; at most ${packLimits.maxFiles} are allowed` });
  }
  let total = 0;
  for (const name of names) {
    const size = sizeOf(pack.files[name] ?? '');
    total += size;
    if (size > packLimits.maxFileBytes) {
      reasons.push({ code: 'file_too_large', message: `${name} is ${size} bytes; a file may hold at most ${packLimits.maxFileBytes}` });
    }
    if (!packLimits.allowedExtensions.some((ext) => name.endsWith(ext))) {
      reasons.push({ code: 'file_type_not_allowed', message: `${name}: only ${packLimits.allowedExtensions.join(' ')} files are allowed` });
    }
    if (name.startsWith('/') || name.split('/').some((part) => part === '..' || part === '' || part.startsWith('.'))) {
      reasons.push({ code: 'file_path_invalid', message: `${name}: paths must be relative, without "..", empty or hidden parts` });
    }
  }
  if (total > packLimits.maxTotalBytes) {
    reasons.push({ code: 'pack_too_large', message: `the pack holds ${total} bytes of sources; at most ${packLimits.maxTotalBytes} are allowed` });
  }
  return reasons;
}
