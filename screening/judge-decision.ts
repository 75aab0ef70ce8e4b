// Our code decides, not the model's prose: a flag counts only if its evidence is really in the pack
// (whitespace aside), and the verdict is reject when the model says so or when any serious flag
// survives. Text in the pack asking for a pass can therefore not undo a flag the model raised.
import { seriousFlagTypes, type JudgeAnswer, type JudgeFlagType } from './judge-answer-schema.ts';
import { neutraliseDelimiters, type PackFileText } from './judge-delimiters.ts';

export interface JudgeFlag {
  type: JudgeFlagType;
  evidence: string;
  file?: string;
}

export interface JudgeDecision {
  verdict: 'pass' | 'reject';
  flags: JudgeFlag[];
  summary: string;
}

/** Shorter evidence would match almost any pack by chance. */
export const minimumEvidenceChars = 3;
const maximumEvidenceChars = 500;
const maximumFlags = 50;
const maximumModelSummaryChars = 1_500;

export function normaliseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

interface SearchableFile {
  path: string;
  label: string;
  haystacks: string[];
}

function searchable(files: readonly PackFileText[]): SearchableFile[] {
  return files.map((file) => ({
    path: file.path,
    label: neutraliseDelimiters(file.path),
    // The model saw the rendered text; the original is accepted too (they differ only at neutralised lookalikes).
    haystacks: [...new Set([normaliseWhitespace(file.rendered), normaliseWhitespace(file.text)])],
  }));
}

type Located = { ok: true; file: string } | { ok: false; why: string };

/** Where the evidence really is: the named file first, else any file of the pack. */
function locate(evidence: string, named: string | null | undefined, files: readonly SearchableFile[]): Located {
  if (evidence.length < minimumEvidenceChars) return { ok: false, why: 'evidence too short' };
  const contains = (file: SearchableFile) => file.haystacks.some((text) => text.includes(evidence));
  const namedFile = named ? files.find((file) => file.path === named || file.label === named) : undefined;
  if (namedFile && contains(namedFile)) return { ok: true, file: namedFile.path };
  const elsewhere = files.find(contains);
  if (elsewhere) return { ok: true, file: elsewhere.path };
  return { ok: false, why: 'not found in the pack' };
}

/** Turns the model's answer into our verdict, with every decision it took recorded in the summary. */
export function decideVerdict(answer: JudgeAnswer, files: readonly PackFileText[]): JudgeDecision {
  const haystack = searchable(files);
  const kept: JudgeFlag[] = [];
  const dropped: string[] = [];
  const seen = new Set<string>();
  for (const flag of answer.flags.slice(0, maximumFlags)) {
    const evidence = normaliseWhitespace(flag.evidence);
    const located = locate(evidence, flag.file, haystack);
    if (!located.ok) {
      dropped.push(
        `${flag.type}${flag.file ? ` in ${clip(flag.file, 80)}` : ''} "${clip(evidence, 80)}" (${located.why})`,
      );
      continue;
    }
    const key = JSON.stringify([flag.type, located.file, evidence]);
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push({ type: flag.type, evidence: clip(evidence, maximumEvidenceChars), file: located.file });
  }

  const serious = [...new Set(kept.filter((flag) => seriousFlagTypes.has(flag.type)).map((flag) => flag.type))];
  const verdict = answer.verdict === 'reject' || serious.length > 0 ? 'reject' : 'pass';
  const parts: string[] = [];
  if (verdict === 'pass')
    parts.push(
      kept.length === 0
        ? 'Pass: no verified flags.'
        : `Pass: only advisory flags (${[...new Set(kept.map((f) => f.type))].join(', ')}).`,
    );
  else if (serious.length > 0) parts.push(`Reject: verified serious flags (${serious.join(', ')}).`);
  else
    parts.push(
      kept.length > 0
        ? 'Reject: the judge model rejected the pack (advisory flags only).'
        : 'Reject: the judge model rejected the pack without verifiable evidence.',
    );
  if (answer.verdict === 'pass' && serious.length > 0)
    parts.push('The model answered "pass" but raised serious flags; the flags decide.');
  if (answer.flags.length > maximumFlags)
    parts.push(`Only the first ${maximumFlags} of ${answer.flags.length} flags were considered.`);
  if (dropped.length > 0)
    parts.push(
      `Dropped ${dropped.length} flag(s) as hallucinated (evidence not verbatim in the pack): ${dropped.slice(0, 10).join('; ')}${dropped.length > 10 ? '; …' : ''}.`,
    );
  parts.push(`Model summary: ${clip(normaliseWhitespace(answer.summary), maximumModelSummaryChars) || '(none)'}`);
  return { verdict, flags: kept, summary: parts.join(' ') };
}
