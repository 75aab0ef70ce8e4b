// Near-copy detection by normalized compression distance (NCD): two programs are close when
// compressing them together costs little more than compressing the larger alone. The code is first
// normalized so that renaming, reformatting and rewriting comments do not hide a copy: comments and
// imports dropped, identifiers replaced by positional placeholders, literals and keywords kept.
import { brotliCompressSync, constants } from 'node:zlib';
import type { CanonicalPack } from '../canonical-pack.ts';
import { tokenize, type Token } from './js-tokens.ts';

/**
 * Default distance at or below which a pack counts as a near copy. Measured on the corpus (eleven
 * honest packs: policy/examples and test/fixtures/packs/honest, 55 pairs): honest pairs lie between
 * 0.57 and 0.97; the renamed and reformatted copy of cost-cascade is 0.07 from it (0.72 without
 * normalization). 0.30 sits well inside that gap. Checked in similarity.test.ts.
 */
export const defaultNearCopyThreshold = 0.3;

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
  const tokens = tokenize(code).filter((token) => token.type !== 'comment');
  const placeholders = new Map<string, string>();
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
      case 'identifier': {
        let placeholder = placeholders.get(token.raw);
        if (!placeholder) {
          placeholder = `$${placeholders.size}`;
          placeholders.set(token.raw, placeholder);
        }
        out.push(placeholder);
        break;
      }
      case 'string':
        out.push(JSON.stringify(token.value ?? ''));
        break;
      case 'template':
        out.push(`${token.templatePart === 'full' || token.templatePart === 'head' ? '`' : '}'}${JSON.stringify(token.value ?? '').slice(1, -1)}${token.templatePart === 'full' || token.templatePart === 'tail' ? '`' : '${'}`);
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
  return out.join(' ');
}

function compressedSize(text: string): number {
  return brotliCompressSync(Buffer.from(text, 'utf8'), {
    params: {
      // Quality 9 gives the same distances as 11 on the corpus (±0.003) and is ~30× faster on a 1 MB pack.
      [constants.BROTLI_PARAM_QUALITY]: 9,
      [constants.BROTLI_PARAM_LGWIN]: 24,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  }).length;
}

/** Normalized compression distance: about 0 for copies, about 1 for unrelated texts. Symmetric, deterministic. */
export function ncd(a: string, b: string): number {
  if (a === '' || b === '') return a === b ? 0 : 1;
  const sizeA = compressedSize(a);
  const sizeB = compressedSize(b);
  const together = Math.min(compressedSize(`${a}\n${b}`), compressedSize(`${b}\n${a}`));
  return Math.max(0, (together - Math.min(sizeA, sizeB)) / Math.max(sizeA, sizeB));
}

/** Python without comments, blank lines and runs of spaces (names are kept: no tokenizer here yet). */
function normalizePython(code: string): string {
  return code
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, '').replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

/** Every file of a pack in path order, each normalized by its kind: what two packs are compared on. */
export function normalizedPackSource(pack: CanonicalPack): string {
  return Object.keys(pack.files)
    .sort()
    .map((name) => {
      const text = pack.files[name]!;
      if (sourceFile.test(name)) return normalizePolicyCode(text);
      if (name.endsWith('.py')) return normalizePython(text);
      return text.replace(/\s+/g, ' ').trim();
    })
    .join('\n');
}

/** Packs within `threshold` of the candidate, nearest first. */
export function findNearCopies(candidate: CanonicalPack, others: { packHash: string; pack: CanonicalPack }[], threshold: number): { packHash: string; distance: number }[] {
  const source = normalizedPackSource(candidate);
  return others
    .map(({ packHash, pack }) => ({ packHash, distance: Math.round(ncd(source, normalizedPackSource(pack)) * 10_000) / 10_000 }))
    .filter(({ distance }) => distance <= threshold)
    .sort((a, b) => a.distance - b.distance || (a.packHash < b.packHash ? -1 : a.packHash > b.packHash ? 1 : 0));
}
