// The static scan of a policy pack: every file of it, of every kind (code, Python, JSON, Markdown,
// text), read after Unicode normalisation, for scenario fingerprints (plain and decoded) and behaviour a policy
// has no business with, weighed into a score and a verdict. Every piece of evidence names the file,
// the line, an excerpt and what it matched, so a rejected miner can see exactly why.
import type { CanonicalPack } from '../packs/canonical-pack.ts';
import { codeBehaviour, stringBehaviour, textBehaviour, type BehaviourHit } from './behaviour-rules.ts';
import { decodedStrings, type DecodedString, type Encoding } from './decoded-strings.ts';
import { findFingerprints, indexFingerprints, type FingerprintIndex } from './fingerprint-index.ts';
import { tokenize, type Token } from './js-tokens.ts';
import { normalizeForScan } from './normalize-text.ts';
import { defaultScanThresholds, ruleFor, type ScanThresholds } from './scan-thresholds.ts';
import type { Fingerprint, ScenarioFingerprints } from './scenario-fingerprints.ts';
import { proseBlobs, resetKeySearchBudget, rotDecoded } from './text-decoders.ts';
import { wordsWithLines, wordTokens } from './word-tokens.ts';

export type ScanEvidence = {
  kind: string;
  scenario?: string;
  file: string;
  line: number;
  excerpt: string;
  matched: string;
  encoding: Encoding;
};
export type ScanResult = { score: number; verdict: 'pass' | 'reject'; evidence: ScanEvidence[] };
export type ScanInput = { pack: CanonicalPack; bundleCode?: string };

/** What the bundle is called in evidence. */
export const bundleFileName = 'bundle.mjs';
const codeFile = /\.(?:[cm]?[jt]sx?|json)$/i;
const maxExcerptChars = 200;
/** Prose tried as rot-n per file (paragraph by paragraph). */
const maxProseRotChars = 64_000;

/**
 * A hit before weighing: `key` says which hits are the same finding (counted once). Excerpts are cut
 * only for the evidence finally shown: a hostile pack can hold a megabyte on one line.
 */
type Hit = Omit<ScanEvidence, 'excerpt'> & { key: string; hint: string };

function excerpt(lines: readonly string[], line: number, hint: string): string {
  const text = (lines[line - 1] ?? '').trim();
  if (text.length <= maxExcerptChars) return text;
  const firstWord = wordTokens(hint)[0];
  const at = firstWord ? Math.max(0, text.toLowerCase().indexOf(firstWord)) : 0;
  const start = Math.max(0, Math.min(at - 40, text.length - (maxExcerptChars - 2)));
  return `${start > 0 ? '…' : ''}${text.slice(start, start + maxExcerptChars - 2)}…`;
}

const cut = (text: string) => (text.length > maxExcerptChars ? `${text.slice(0, maxExcerptChars - 1)}…` : text);

/**
 * Identifiers, paths and fixture values are matched in their own spelling, not only as words: the
 * words of `rate_limit` or `/.git/config` also occur in honest prose ("rate limit", "git config").
 */
function needsLiteral(fingerprint: Fingerprint): boolean {
  return (
    fingerprint.kind === 'file-path' ||
    fingerprint.kind === 'fixture-value' ||
    (!/\s/.test(fingerprint.display) && /[_./:-]/.test(fingerprint.display))
  );
}

/** Fingerprint hits in one word sequence; overlapping instruction shingles become one piece of evidence. */
function fingerprintHits(
  index: FingerprintIndex,
  words: string[],
  lineOf: (word: number) => number,
  contextOf: (word: number) => string,
  file: string,
  encoding: Encoding,
): Hit[] {
  const found = findFingerprints(index, words).filter(
    ({ fingerprint, start }) =>
      !needsLiteral(fingerprint) || contextOf(start).includes(fingerprint.display.toLowerCase()),
  );
  const hits: Hit[] = [];
  let run: { scenario: string; start: number; end: number; keys: string[] } | undefined;
  const closeRun = () => {
    if (!run) return;
    const matched = cut(words.slice(run.start, run.end).join(' '));
    // Each shingle is its own finding for the score; the evidence shows the run once.
    run.keys.forEach((key, position) => {
      hits.push({
        kind: 'instruction-phrase',
        scenario: run!.scenario,
        file,
        line: lineOf(run!.start),
        matched,
        encoding,
        key: position === 0 ? key : `${key}\0hidden`,
        hint: matched,
      });
    });
    run = undefined;
  };
  const shown = new Set<string>();
  for (const { fingerprint, start, length } of found) {
    if (fingerprint.kind === 'instruction-phrase') {
      if (run && run.scenario === fingerprint.scenario && start <= run.end) {
        run.end = Math.max(run.end, start + length);
        run.keys.push(fingerprint.text);
        continue;
      }
      closeRun();
      run = { scenario: fingerprint.scenario, start, end: start + length, keys: [fingerprint.text] };
      continue;
    }
    // The first sighting in this text is enough; repeats add nothing but work.
    const seenKey = `${fingerprint.scenario}\0${fingerprint.text}`;
    if (shown.has(seenKey)) continue;
    shown.add(seenKey);
    hits.push({
      kind: fingerprint.kind,
      scenario: fingerprint.scenario,
      file,
      line: lineOf(start),
      matched: fingerprint.display,
      encoding,
      key: fingerprint.text,
      hint: fingerprint.text,
    });
  }
  closeRun();
  return hits;
}

function behaviourHits(found: BehaviourHit[], file: string): Hit[] {
  return found.map((hit) => ({
    kind: hit.kind,
    file,
    line: hit.line,
    matched: hit.matched,
    encoding: hit.encoding,
    key: hit.matched,
    hint: hit.matched,
  }));
}

/** Lower-cased once, on first use: the texts literal spellings are looked for in. */
function lowerOnce(text: () => string): () => string {
  let lower: string | undefined;
  return () => (lower ??= text().toLowerCase());
}

const pythonFile = /\.py$/i;

/** Decoded strings of one file: code by its language, prose and data by the encoded runs it holds. */
function fileStrings(file: string, text: string): { strings: DecodedString[]; tokens?: Token[] } {
  if (pythonFile.test(file)) return { strings: decodedStrings(text, undefined, 'python') };
  if (codeFile.test(file)) {
    const tokens = tokenize(text);
    return { strings: decodedStrings(text, tokens), tokens };
  }
  resetKeySearchBudget();
  const strings: DecodedString[] = proseBlobs(text);
  // Rotated prose: each paragraph on its own, so one rotated line in honest text is still found.
  let rotChars = 0;
  let line = 1;
  for (const paragraph of text.split(/\n\s*\n/)) {
    if (rotChars < maxProseRotChars) {
      rotChars += paragraph.length;
      const rotated = rotDecoded(paragraph.slice(0, maxProseRotChars));
      if (rotated !== undefined) strings.push({ text: rotated, line, encoding: 'rot-n' });
    }
    for (let k = 0; k < paragraph.length; k++) if (paragraph.charCodeAt(k) === 10) line += 1;
    line += 2;
  }
  return { strings };
}

function scanFile(index: FingerprintIndex, file: string, original: string, lines: string[]): Hit[] {
  // Every file, of every kind, is read after Unicode normalisation; findings only the normalised text
  // shows were hidden by invisible or look-alike characters.
  const text = normalizeForScan(original);
  const plainHits = (source: string) => {
    const raw = wordsWithLines(source);
    const sourceLines = source === original ? lines : source.split('\n');
    const lineOf = (word: number) => raw.lines[word] ?? 1;
    const lowerLines = new Map<number, () => string>();
    const lineContext = (word: number) => {
      const line = lineOf(word);
      if (!lowerLines.has(line))
        lowerLines.set(
          line,
          lowerOnce(() => sourceLines[line - 1] ?? ''),
        );
      return lowerLines.get(line)!();
    };
    return fingerprintHits(index, raw.words, lineOf, lineContext, file, 'plain');
  };
  let hits = plainHits(text);
  if (text !== original) {
    const visible = new Set(plainHits(original).map((hit) => `${hit.kind}\0${hit.key}`));
    hits = hits.map((hit) => (visible.has(`${hit.kind}\0${hit.key}`) ? hit : { ...hit, encoding: 'unicode' as const }));
  }
  hits.push(...behaviourHits(textBehaviour(text), file));
  const { strings: found, tokens } = fileStrings(file, text);
  const strings = found.map((decoded) => ({ ...decoded, text: normalizeForScan(decoded.text) }));
  const scanString = (decoded: (typeof strings)[number]) => {
    const context = lowerOnce(() => decoded.text);
    return fingerprintHits(index, wordTokens(decoded.text), () => decoded.line, context, file, decoded.encoding);
  };
  for (const decoded of strings) if (decoded.encoding === 'plain') hits.push(...scanString(decoded));
  // A finding the file also shows in plain is not hidden: its decoded copies add nothing.
  const plain = new Set(hits.filter((hit) => hit.encoding === 'plain').map((hit) => `${hit.kind}\0${hit.key}`));
  for (const decoded of strings) {
    if (decoded.encoding !== 'plain')
      hits.push(...scanString(decoded).filter((hit) => !plain.has(`${hit.kind}\0${hit.key}`)));
  }
  hits.push(...behaviourHits([...(tokens ? codeBehaviour(tokens) : []), ...stringBehaviour(strings)], file));
  return hits;
}

/** Pack files in path order, then the bundle: evidence names the first place a finding shows. */
function filesOf(input: ScanInput): [string, string][] {
  const files = Object.keys(input.pack.files)
    .sort()
    .map((name): [string, string] => [name, input.pack.files[name]!]);
  if (input.bundleCode) files.push([bundleFileName, input.bundleCode]);
  return files;
}

export function scanPack(
  input: ScanInput,
  fingerprints: ScenarioFingerprints,
  thresholds: ScanThresholds = defaultScanThresholds,
): ScanResult {
  const index = indexFingerprints(fingerprints);
  const weightOf = (hit: Hit) =>
    ruleFor(thresholds, hit.kind).weight * (hit.encoding === 'plain' ? 1 : thresholds.encodedWeightFactor);
  const findingOf = (hit: Hit) => `${hit.kind}\0${hit.scenario ?? ''}\0${hit.key.replace(/\0hidden$/, '')}`;

  // One finding per scenario, one entry: its heaviest sighting (decoded beats plain), the first of equals. The
  // bundle only adds what the sources do not show (esbuild folds 'a' + 'b' into 'ab', for example).
  const best = new Map<string, { hit: Hit; weight: number; order: number }>();
  const linesOf = new Map<string, string[]>();
  let order = 0;
  for (const [file, text] of filesOf(input)) {
    const fromBundle = file === bundleFileName && input.bundleCode !== undefined;
    const inSources = new Set(best.keys());
    const lines = text.split('\n');
    linesOf.set(file, lines);
    for (const hit of scanFile(index, file, text, lines)) {
      const finding = findingOf(hit);
      if (fromBundle && inSources.has(finding)) continue;
      const weight = weightOf(hit);
      const current = best.get(finding);
      // Hidden shingles (inside a run of instruction text) count, but a visible sighting is preferred.
      const better =
        !current ||
        weight > current.weight ||
        (current.hit.key.endsWith('\0hidden') && !hit.key.endsWith('\0hidden') && weight === current.weight);
      if (better) best.set(finding, { hit, weight, order: current?.order ?? order++ });
    }
  }

  // Score: each finding once (a path two scenarios share is one finding), each kind capped; any
  // finding of a hard kind rejects on its own.
  const heaviest = new Map<string, { kind: string; weight: number }>();
  for (const { hit, weight } of best.values()) {
    const finding = `${hit.kind}\0${hit.key.replace(/\0hidden$/, '')}`;
    heaviest.set(finding, { kind: hit.kind, weight: Math.max(weight, heaviest.get(finding)?.weight ?? 0) });
  }
  const totals = new Map<string, number>();
  let hard = false;
  for (const { kind, weight } of heaviest.values()) {
    totals.set(kind, (totals.get(kind) ?? 0) + weight);
    const rule = ruleFor(thresholds, kind);
    if (rule.hardReject && rule.weight > 0) hard = true;
  }
  let score = 0;
  for (const [kind, total] of totals) score += Math.min(total, ruleFor(thresholds, kind).cap);
  score = Math.round(score * 100) / 100;

  // Evidence, the worst first; within the limit every (kind, scenario) shows once before any repeats.
  const visible = [...best.values()]
    .filter(({ hit }) => !hit.key.endsWith('\0hidden'))
    .sort((a, b) => a.order - b.order);
  const seenGroups = new Map<string, number>();
  const ranked = visible.map((entry) => {
    const group = `${entry.hit.kind}\0${entry.hit.scenario ?? ''}`;
    const rank = seenGroups.get(group) ?? 0;
    seenGroups.set(group, rank + 1);
    return { ...entry, rank, hard: ruleFor(thresholds, entry.hit.kind).hardReject };
  });
  const evidence = ranked
    .sort((a, b) => Number(b.hard) - Number(a.hard) || a.rank - b.rank || b.weight - a.weight || a.order - b.order)
    .slice(0, thresholds.maxEvidence)
    .map(
      ({ hit: { key: _key, hint, ...item } }): ScanEvidence => ({
        ...item,
        excerpt: excerpt(linesOf.get(item.file) ?? [], item.line, hint),
      }),
    );
  return { score, verdict: hard || score >= thresholds.rejectScore ? 'reject' : 'pass', evidence };
}
