// Payloads in a custom alphabet: base16/32/64/85 written with a permuted or home-made digit table.
// A policy that decodes such a blob at run time must carry the table, so the table is in the pack: a
// string of 16, 32, 64 (65 with a padding character) or 85 distinct printable characters. Every such
// table a file holds is tried on every long string of the same file whose characters all belong to it,
// as the digits of that base, in order; what comes out is kept when it is text (or inflates to text,
// or is text under a XOR key), like every other decoder's output, and then goes through the scan's
// fingerprint match. A table that decodes nothing to text adds nothing: honest packs with their own
// base64 or hex tables are not flagged for having them. Bounded: a few tables, a budget of characters.
import { textOrKeyed } from './text-decoders.ts';

/** Digit-table sizes tried, and what each digit carries (85: five digits make four bytes). */
const bitsPerDigit = new Map<number, number>([
  [16, 4],
  [32, 5],
  [64, 6],
]);
export const customAlphabetLimits = {
  /** Tables tried per file. */
  maxAlphabets: 8,
  /** Characters of blobs decoded per file, over all tables. */
  maxDecodedChars: 400_000,
  /** A shorter string carries too little to be a payload (and many short strings use 16 letters). */
  minBlobChars: 24,
};

/** The digit table (without its padding character) if `text` is one: distinct printable characters. */
export function alphabetOf(text: string): string | undefined {
  if (![16, 32, 64, 65, 85].includes(text.length)) return undefined;
  if (!/^[!-~]+$/.test(text)) return undefined;
  if (new Set(text).size !== text.length) return undefined;
  // 65: the last character pads (`=` in base64).
  return text.length === 65 ? text.slice(0, 64) : text;
}

/** Bytes of `blob` read as digits of `alphabet` (padding `pad` and whitespace ignored), or undefined. */
export function alphabetBytes(blob: string, alphabet: string, pad = '='): Buffer | undefined {
  const value = new Map<string, number>();
  for (let i = 0; i < alphabet.length; i++) value.set(alphabet[i]!, i);
  const digits: number[] = [];
  for (const char of blob) {
    if (char === pad && !value.has(char)) continue;
    if (char === ' ' || char === '\n' || char === '\r' || char === '\t') continue;
    const digit = value.get(char);
    if (digit === undefined) return undefined;
    digits.push(digit);
  }
  if (alphabet.length === 85) {
    const bytes: number[] = [];
    for (let start = 0; start < digits.length; start += 5) {
      const group = digits.slice(start, start + 5);
      let word = 0;
      for (let index = 0; index < 5; index++) word = word * 85 + (index < group.length ? group[index]! : 84);
      if (word > 0xffffffff) return undefined;
      const four = [word >>> 24, (word >>> 16) & 255, (word >>> 8) & 255, word & 255];
      bytes.push(...four.slice(0, group.length === 5 ? 4 : group.length - 1));
    }
    return Buffer.from(bytes);
  }
  const bits = bitsPerDigit.get(alphabet.length);
  if (bits === undefined) return undefined;
  const bytes: number[] = [];
  let buffer = 0;
  let held = 0;
  for (const digit of digits) {
    buffer = ((buffer << bits) | digit) & 0xffff;
    held += bits;
    if (held >= 8) {
      held -= 8;
      bytes.push((buffer >> held) & 255);
    }
  }
  return Buffer.from(bytes);
}

export interface AlphabetDecoded {
  text: string;
  /** Index of the blob in the list given. */
  blob: number;
  alphabet: string;
}

/**
 * Every (table, blob) pair of one file that decodes to text. `strings` are the file's strings as the
 * scan sees them (literals, joined pieces); tables and blobs are both picked from them.
 */
export function customAlphabetDecodings(strings: readonly string[]): AlphabetDecoded[] {
  const alphabets: string[] = [];
  for (const text of strings) {
    const alphabet = alphabetOf(text);
    if (alphabet && !alphabets.includes(alphabet)) alphabets.push(alphabet);
    if (alphabets.length >= customAlphabetLimits.maxAlphabets) break;
  }
  if (alphabets.length === 0) return [];
  const found: AlphabetDecoded[] = [];
  let budget = customAlphabetLimits.maxDecodedChars;
  // Longest first: the pieces of a payload joined from literals say nothing the whole does not.
  const order = strings.map((_, index) => index).sort((a, b) => strings[b]!.length - strings[a]!.length);
  for (const alphabet of alphabets) {
    const members = new Set(alphabet);
    const decodedBlobs: string[] = [];
    for (const index of order) {
      const blob = strings[index]!;
      if (budget <= 0 || blob.length < customAlphabetLimits.minBlobChars) break;
      if (alphabetOf(blob) !== undefined || decodedBlobs.some((whole) => whole.includes(blob))) continue;
      // Cheap membership test first: every character a digit of the table (or padding, or a line break).
      let digits = true;
      for (const char of blob)
        if (!members.has(char) && char !== '=' && char !== '\n' && char !== ' ') {
          digits = false;
          break;
        }
      if (!digits) continue;
      budget -= blob.length;
      const bytes = alphabetBytes(blob, alphabet);
      const text = bytes && bytes.length >= 4 ? textOrKeyed(bytes) : undefined;
      if (text === undefined) continue;
      found.push({ text, blob: index, alphabet });
      decodedBlobs.push(blob);
    }
  }
  return found;
}
