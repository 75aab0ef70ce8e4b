// Format 1's rules: SKILL.md required; exactly one entry decides the kind (policy.json data,
// policy.py Python, policy.ts the project's TypeScript SDK); relative file names; 32 KB in all.
// Every problem is returned, each naming the file and the rule.
import type { Rejection } from '../contracts/results.ts';
import { canonicalJson, type CanonicalPack } from './canonical-pack.ts';
import { packLimits } from './limits.ts';
import { parsePolicyJson } from './policy-json-schema.ts';

export const skillFile = 'SKILL.md';

export const packKindByEntry = {
  'policy.json': 'data',
  'policy.py': 'python',
  'policy.ts': 'typescript',
} as const;
export type PackEntry = keyof typeof packKindByEntry;
export type PackKind = (typeof packKindByEntry)[PackEntry];
export const packEntries = Object.keys(packKindByEntry) as PackEntry[];

/** The kind a well-formed pack has; undefined when no single entry decides it. */
export function packKindOf(pack: CanonicalPack): PackKind | undefined {
  const present = packEntries.filter((entry) => entry in pack.files);
  return present.length === 1 ? packKindByEntry[present[0]!] : undefined;
}

export function entryOf(kind: PackKind): PackEntry {
  return packEntries.find((entry) => packKindByEntry[entry] === kind)!;
}

/** Why a file name is not allowed, or undefined. Names are relative paths with `/` separators. */
export function fileNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'a file name is empty';
  if (name.length > packLimits.maxFileNameLength)
    return `the name is ${name.length} characters; at most ${packLimits.maxFileNameLength}`;
  // Control characters (newlines in names end up in logs and archives) and backslashes are refused.
  if (/[\u0000-\u001f\u007f\\]/.test(name)) return 'names may not hold control characters or backslashes';
  if (name.startsWith('/')) return 'names are relative: remove the leading "/"';
  const parts = name.split('/');
  if (parts.some((part) => part === '..')) return 'names may not hold ".." parts';
  if (parts.some((part) => part === '' || part === '.')) return 'names may not hold empty or "." parts';
  return undefined;
}

/** A short label for display (memo, CLI): SKILL.md's front-matter name or first heading. */
export function packDisplayName(pack: CanonicalPack): string | undefined {
  const skill = pack.files[skillFile]?.slice(0, 4096) ?? '';
  const named = /^name:\s*([^\n]{1,64})$/m.exec(skill) ?? /^#\s+([^\n]{1,64})$/m.exec(skill);
  return named?.[1]?.trim() || undefined;
}

export function checkPackFormat(pack: CanonicalPack): Rejection[] {
  const reasons: Rejection[] = [];
  const names = Object.keys(pack.files);
  const bytes = Buffer.byteLength(canonicalJson(pack), 'utf8');
  if (bytes > packLimits.maxPackBytes) {
    reasons.push({
      code: 'pack_too_large',
      message: `the pack is ${bytes} bytes as canonical JSON; at most ${packLimits.maxPackBytes} (32 KB) are allowed`,
    });
  }
  if (names.length > packLimits.maxFiles)
    reasons.push({
      code: 'too_many_files',
      message: `the pack has ${names.length} files; at most ${packLimits.maxFiles} are allowed`,
    });
  for (const name of names.slice(0, packLimits.maxFiles + 1)) {
    const problem = fileNameProblem(name);
    if (problem)
      reasons.push({ code: 'file_path_invalid', message: `${JSON.stringify(name.slice(0, 80))}: ${problem}` });
  }
  if (!(skillFile in pack.files))
    reasons.push({
      code: 'skill_missing',
      message: `${skillFile} is required: add a short note for the agent (it is placed read-only in /workspace)`,
    });
  const present = packEntries.filter((entry) => entry in pack.files);
  if (present.length === 0) {
    reasons.push({
      code: 'entry_missing',
      message: `the pack has no entry: add exactly one of ${packEntries.join(', ')}`,
    });
  } else if (present.length > 1) {
    reasons.push({
      code: 'entry_ambiguous',
      message: `the pack has ${present.join(' and ')}: exactly one entry decides the kind; keep one`,
    });
  } else if (present[0] === 'policy.json') {
    const checked = parsePolicyJson(pack.files['policy.json']!);
    if (!checked.ok) reasons.push({ code: 'policy_json_invalid', message: checked.message });
  }
  return reasons;
}
