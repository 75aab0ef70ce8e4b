// Near-copy detection on the files a pack can reach from its entry (reachable-files.ts), two ways:
// normalized compression distance (NCD: compressing two programs together costs little more than the
// larger alone) and containment (the share of the earlier pack's token 6-grams found in the new one,
// which padding cannot dilute). The code is first normalized so that renaming, reordering,
// reformatting and rewriting comments do not hide a copy: comments and imports dropped, every
// identifier the same placeholder (independent of declaration order), literals and keywords kept,
// files ordered by their normal form rather than by name. A third measure does not depend on control flow
// at all (similarity-anchors.ts): what the program says and calls, so rewriting its loops hides nothing.
import { brotliCompressSync, constants } from 'node:zlib';
import { canonicalJson, type CanonicalPack } from '../packs/canonical-pack.ts';
import { tokenize, type Token } from './js-tokens.ts';
import { tokenizePython } from './python-tokens.ts';
import { reachableFiles } from './reachable-files.ts';
import { BoundedMemo } from '../common/bounded-memo.ts';
import { anchorContainment, anchorProfile, isAnchorCopy, type AnchorProfile } from './similarity-anchors.ts';

/**
 * Default distance at or below which a pack counts as a near copy, and the containment at or above
 * which it does. Measured on the corpus (sixteen honest packs and examples, 120 pairs) in
 * similarity.test.ts, which prints the closest honest pair and the copies' figures.
 */
export const defaultNearCopyThreshold = 0.3;
export const defaultContainmentThreshold = 0.7;
/** Earlier packs with fewer distinct 6-grams than this are too small for containment to mean anything. */
const minContainmentGrams = 80;
const gramTokens = 6;

const sourceFile = /\.(?:[cm]?[jt]sx?)$/i;
const closing = new Set([')', ']', '}']);

function numberText(raw: string): string {
  const value = Number(raw.replace(/_/g, '').replace(/n$/, ''));
  return Number.isFinite(value) ? String(value) : raw;
}

/** Index just past an import declaration starting at `start` (its `from '…'` or bare `'…'`). */
function endOfImport(tokens: readonly Token[], start: number): number {
  for (let index = start + 1; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token.type === 'string') return tokens[index + 1]?.raw === ';' ? index + 2 : index + 1;
    if (token.raw === ';') return index + 1;
  }
  return tokens.length;
}

/** The normal form compared by `ncd`: identical for copies that differ only in names, layout and comments. */
export function normalizePolicyCode(code: string): string {
  return normalizedTokens(tokenize(code)).join(' ');
}

/** Normal-form tokens of JavaScript/TypeScript or Python tokens. */
function normalizedTokens(all: readonly Token[]): string[] {
  const tokens = all.filter((token) => token.type !== 'comment');
  const out: string[] = [];
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    const next = tokens[index + 1];
    // Import lists are reordered and aliased freely; what is imported shows in how it is used.
    if (token.type === 'keyword' && token.raw === 'import' && next?.raw !== '(' && next?.raw !== '.') {
      index = endOfImport(tokens, index) - 1;
      continue;
    }
    switch (token.type) {
      case 'identifier':
        // One placeholder for every name a pack chooses (numbering names by first appearance made a
        // copy with its declarations reordered a different text); property names after a dot are
        // kept, most of them are the SDK's and the request's (`ctx.call`, `request.messages`).
        out.push(tokens[index - 1]?.raw === '.' || tokens[index - 1]?.raw === '?.' ? token.raw : '$');
        break;
      case 'string':
        out.push(JSON.stringify(token.value ?? ''));
        break;
      case 'template':
        out.push(
          `${token.templatePart === 'full' || token.templatePart === 'head' ? '`' : '}'}${JSON.stringify(token.value ?? '').slice(1, -1)}${token.templatePart === 'full' || token.templatePart === 'tail' ? '`' : '${'}`,
        );
        break;
      case 'number':
        out.push(numberText(token.raw));
        break;
      case 'punct':
        // Semicolons and trailing commas are what formatters add or remove.
        if (token.raw === ';' || (token.raw === ',' && next !== undefined && closing.has(next.raw))) break;
        out.push(token.raw);
        break;
      default:
        out.push(token.raw);
    }
  }
  return out;
}

function brotliSize(text: string): number {
  return brotliCompressSync(Buffer.from(text, 'utf8'), {
    params: {
      // Quality 8: the corpus's 1,225 pairs move by 0.004 on average from quality 9 (0.024 at most, none across
      // the threshold) for a twentieth of the CPU (0.8 s against 15.8): quality 9's match finder takes a table
      // just over the size glibc serves from its heap, so every call mapped and faulted in fresh pages.
      [constants.BROTLI_PARAM_QUALITY]: 8,
      [constants.BROTLI_PARAM_LGWIN]: 24,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  }).length;
}

// A pack's own compressed size is the same in every comparison it is in (a candidate against each
// earlier pack, then the next candidate against the same packs): worked out once, bounded.
const ownSizes = new BoundedMemo(brotliSize, { maxChars: 16 * 1024 * 1024, maxEntryChars: 4 * 1024 * 1024 });

/** Normalized compression distance: about 0 for copies, about 1 for unrelated texts. Symmetric, deterministic. */
export function ncd(a: string, b: string): number {
  if (a === '' || b === '') return a === b ? 0 : 1;
  const sizeA = ownSizes.get(a);
  const sizeB = ownSizes.get(b);
  const together = Math.min(brotliSize(`${a}\n${b}`), brotliSize(`${b}\n${a}`));
  return Math.max(0, (together - Math.min(sizeA, sizeB)) / Math.max(sizeA, sizeB));
}

function normalizedFile(name: string, text: string): string[] {
  if (sourceFile.test(name)) return normalizedTokens(tokenize(text));
  if (name.endsWith('.py'))
    return normalizedTokens(
      tokenizePython(text).filter(
        (token, index, all) =>
          !(
            token.type === 'keyword' &&
            (token.raw === 'import' || token.raw === 'from') &&
            (index === 0 || all[index - 1]!.line < token.line)
          ),
      ),
    );
  if (name.endsWith('.json')) {
    try {
      return [canonicalJson(JSON.parse(text))];
    } catch {
      // Not JSON after all: compared as text.
    }
  }
  return text.toLowerCase().split(/\s+/).filter(Boolean);
}

export type PackProfile = { source: string; grams: Set<string>; anchors: AnchorProfile };

/** What two packs are compared on: the normal form of the reachable files, and its token 6-grams. */
export function packProfile(pack: CanonicalPack): PackProfile {
  const files = reachableFiles(pack).map((name) => normalizedFile(name, pack.files[name]!));
  const grams = new Set<string>();
  for (const tokens of files)
    for (let i = 0; i + gramTokens <= tokens.length; i++) grams.add(tokens.slice(i, i + gramTokens).join(' '));
  // Ordered by content, not by name: renaming files changes nothing.
  return {
    source: files
      .map((tokens) => tokens.join(' '))
      .sort()
      .join('\n'),
    grams,
    anchors: anchorProfile(pack),
  };
}

/** Every reachable file of a pack, normalized and in a name-independent order. */
export function normalizedPackSource(pack: CanonicalPack): string {
  return packProfile(pack).source;
}

/** The share of `earlier`'s 6-grams that `candidate` holds; 0 when `earlier` is too small to tell. */
export function containment(candidate: PackProfile, earlier: PackProfile): number {
  if (earlier.grams.size < minContainmentGrams) return 0;
  let inside = 0;
  for (const gram of earlier.grams) if (candidate.grams.has(gram)) inside += 1;
  return inside / earlier.grams.size;
}

export type NearCopy = {
  packHash: string;
  distance: number;
  containment: number;
  /** Shares of the earlier pack's anchors and adjacent anchor pairs the candidate holds (similarity-anchors.ts). */
  anchors: number;
  anchorPairs: number;
};

/** Every comparison with the earlier packs, the closest first (NCD, then containment). */
export function comparePacks(
  candidate: CanonicalPack,
  others: { packHash: string; pack: CanonicalPack }[],
): NearCopy[] {
  const profile = packProfile(candidate);
  const round = (value: number) => Math.round(value * 10_000) / 10_000;
  return others
    .map(({ packHash, pack }) => {
      const other = packProfile(pack);
      const anchored = anchorContainment(profile.anchors, other.anchors);
      return {
        packHash,
        distance: round(ncd(profile.source, other.source)),
        containment: round(containment(profile, other)),
        anchors: round(anchored.anchors),
        anchorPairs: round(anchored.pairs),
      };
    })
    .sort(
      (a, b) =>
        a.distance - b.distance ||
        b.containment - a.containment ||
        (a.packHash < b.packHash ? -1 : a.packHash > b.packHash ? 1 : 0),
    );
}

/**
 * Packs the candidate is a near copy of (NCD within `threshold`, or containment at or above `minContainment`, or
 * the earlier pack's anchors and anchor pairs held whatever the control flow), nearest first.
 */
export function findNearCopies(
  candidate: CanonicalPack,
  others: { packHash: string; pack: CanonicalPack }[],
  threshold: number,
  minContainment = defaultContainmentThreshold,
): NearCopy[] {
  return comparePacks(candidate, others).filter(
    (found) =>
      found.distance <= threshold ||
      found.containment >= minContainment ||
      isAnchorCopy({ anchors: found.anchors, pairs: found.anchorPairs }),
  );
}
