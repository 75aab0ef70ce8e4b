// The control-flow-insensitive side of near-copy detection. A copier can rewrite every loop (for →
// while, forEach → for-of, a comprehension → a loop), rename every variable and reorder the
// functions; NCD and token 6-grams then see a new program. What such a rewrite keeps is what the
// program says and calls: its string, template, number and regex literals, the property names it
// reaches (`ctx.call`, `request.messages`, `.maxTokens`) and the library functions it calls by their
// imported names. That sequence of anchors, with the names of iteration itself left out (`map`,
// `forEach`, `push`, `append`, `range`, `len`, …: what a loop rewrite adds or removes), is compared as a
// set (what of the earlier pack's anchors the candidate holds) and as anchor pairs (which of its
// adjacent pairs it holds: order inside a function survives reordering the functions). A copy keeps
// both; an honest pack in the same style shares vocabulary (model names, SDK calls) but not the pairs.
// Linear in the pack's size.
import type { CanonicalPack } from '../packs/canonical-pack.ts';
import { tokenize, type Token } from './js-tokens.ts';
import { tokenizePython } from './python-tokens.ts';
import { reachableFiles } from './reachable-files.ts';

/** Words of iteration and collection building: a loop rewrite adds or removes them, so they say nothing. */
const iterationNames = new Set([
  'forEach',
  'map',
  'filter',
  'flatMap',
  'reduce',
  'reduceRight',
  'push',
  'unshift',
  'append',
  'extend',
  'insert',
  'length',
  'keys',
  'values',
  'entries',
  'items',
  'some',
  'every',
  'find',
  'findIndex',
  'range',
  'len',
  'enumerate',
  'zip',
  'next',
  'iter',
]);

export const anchorThresholds = {
  /** Earlier packs with fewer distinct anchors than this say too little for the comparison to mean anything. */
  minAnchors: 20,
  /** A near copy holds at least this share of the earlier pack's distinct anchors … */
  minAnchorContainment: 0.8,
  /** … and at least this share of its adjacent anchor pairs. */
  minPairContainment: 0.45,
};

const scriptFile = /\.(?:[cm]?[jt]sx?)$/i;

/** Names a file imports (the library's functions): `import { a, b as c } from 'x'`, `from x import a, b`. */
function importedNames(tokens: readonly Token[], python: boolean): Set<string> {
  const names = new Set<string>();
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token.type !== 'keyword' || (token.raw !== 'import' && token.raw !== 'from')) continue;
    let open = 0;
    for (let at = index + 1; at < tokens.length; at++) {
      const next = tokens[at]!;
      if (next.raw === '(' || next.raw === '{') open += 1;
      else if (next.raw === ')' || next.raw === '}') open -= 1;
      // A Python import ends with its line (unless in parentheses); a script import with its module string.
      if (python ? next.line !== token.line && open <= 0 && next.raw !== ')' : next.type === 'string') break;
      if (next.type === 'identifier') names.add(next.raw);
    }
  }
  return names;
}

/** The anchors of one source file, in order. */
function fileAnchors(name: string, text: string): string[] {
  const python = name.endsWith('.py');
  if (!python && !scriptFile.test(name)) return [];
  const tokens = (python ? tokenizePython(text) : tokenize(text)).filter((token) => token.type !== 'comment');
  const imported = importedNames(tokens, python);
  const out: string[] = [];
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    const previous = tokens[index - 1]?.raw;
    switch (token.type) {
      case 'string':
      case 'template': {
        const value = (token.value ?? '').trim().replace(/\s+/g, ' ');
        if (value && !imported.has(value)) out.push(`"${value}`);
        break;
      }
      case 'number':
        out.push(`#${Number(token.raw.replace(/_/g, '').replace(/n$/, ''))}`);
        break;
      case 'regex':
        out.push(`/${token.raw}`);
        break;
      case 'identifier':
        if (previous === '.' || previous === '?.') {
          if (!iterationNames.has(token.raw)) out.push(`.${token.raw}`);
        } else if (imported.has(token.raw) && tokens[index + 1]?.raw === '(' && previous !== 'import') {
          if (!iterationNames.has(token.raw)) out.push(`${token.raw}()`);
        }
        break;
      default:
    }
  }
  return out;
}

export type AnchorProfile = { anchors: Set<string>; pairs: Set<string> };

/** A pack's anchors and adjacent anchor pairs over its reachable source files. */
export function anchorProfile(pack: CanonicalPack): AnchorProfile {
  const anchors = new Set<string>();
  const pairs = new Set<string>();
  for (const name of reachableFiles(pack)) {
    const sequence = fileAnchors(name, pack.files[name]!);
    for (let index = 0; index < sequence.length; index++) {
      anchors.add(sequence[index]!);
      if (index > 0) pairs.add(`${sequence[index - 1]}\u0000${sequence[index]}`);
    }
  }
  return { anchors, pairs };
}

function share(candidate: Set<string>, earlier: Set<string>): number {
  if (earlier.size === 0) return 0;
  let inside = 0;
  for (const item of earlier) if (candidate.has(item)) inside += 1;
  return inside / earlier.size;
}

export type AnchorContainment = { anchors: number; pairs: number };

/** The share of `earlier`'s anchors and of its anchor pairs that `candidate` holds; zeros when `earlier` is too small. */
export function anchorContainment(candidate: AnchorProfile, earlier: AnchorProfile): AnchorContainment {
  if (earlier.anchors.size < anchorThresholds.minAnchors) return { anchors: 0, pairs: 0 };
  return { anchors: share(candidate.anchors, earlier.anchors), pairs: share(candidate.pairs, earlier.pairs) };
}

/** Both shares at or above their thresholds: the candidate keeps what the earlier pack says, in its order. */
export function isAnchorCopy(found: AnchorContainment, thresholds = anchorThresholds): boolean {
  return found.anchors >= thresholds.minAnchorContainment && found.pairs >= thresholds.minPairContainment;
}
