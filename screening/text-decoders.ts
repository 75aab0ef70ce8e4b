// Decoders the static scan tries on every string and every blob of text it meets: base64, hex and
// base32 payloads, letters rotated (rot-n, the rotation picked by English letter frequencies) and
// bytes XOR-ed with, or shifted by, one constant (the constant picked by how text-like the result
// is). Each is one linear pass, or a fixed number of them over a bounded prefix.
import { gunzipSync, inflateSync } from 'node:zlib';

export const minDecodedChars = 6;
/** Bytes one file may spend on the XOR/shift search (255 + 255 passes each). */
export const maxKeySearchBytes = 64_000;
const maxKeySearchItemBytes = 8_192;

/** Printable text: no replacement characters, few control characters. */
export function printable(text: string): boolean {
  if (text.length < minDecodedChars || text.includes('\ufffd')) return false;
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 32 && code !== 9 && code !== 10 && code !== 13) control += 1;
  }
  return control / text.length < 0.05;
}

export function base64Decoded(text: string): string | undefined {
  const compact = text.trim();
  // Each test is one linear pass: "mixed case" as two class searches, not `[a-z].*[A-Z]`, which
  // backtracks quadratically on a long run of one letter class (a padded pack took minutes).
  if (compact.length < 8 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(compact)) return undefined;
  if (!/[0-9+/=_-]/.test(compact) && !(/[a-z]/.test(compact) && /[A-Z]/.test(compact))) return undefined;
  return textOrKeyed(Buffer.from(compact, 'base64'));
}

export function hexDecoded(text: string): string | undefined {
  const compact = text
    .trim()
    .replace(/\\x|0x/gi, '')
    .replace(/[\s,:]+/g, '');
  if (compact.length < 12 || compact.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(compact)) return undefined;
  return textOrKeyed(Buffer.from(compact, 'hex'));
}

export function base32Decoded(text: string): string | undefined {
  const compact = text.trim();
  // One case only, and long enough that a word in capitals is not taken for base32.
  if (compact.length < 16 || !(/^[A-Z2-7]+=*$/.test(compact) || /^[a-z2-7]+=*$/.test(compact))) return undefined;
  const bytes = base32Bytes(compact);
  return bytes && textOrKeyed(bytes);
}

let keyBudget = maxKeySearchBytes;
/** Starts a file's budget for the key search. */
export function resetKeySearchBudget(): void {
  keyBudget = maxKeySearchBytes;
}

/** What a compressed payload may inflate to: a bomb stops here (the inflater throws past it). */
export const maxInflatedBytes = 256 * 1024;

/** Bytes a zlib or gzip stream (DEFLATE inside) inflates to, bounded; nothing for anything else. */
export function inflated(bytes: Buffer): Buffer | undefined {
  if (bytes.length < 8) return undefined;
  try {
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) return gunzipSync(bytes, { maxOutputLength: maxInflatedBytes });
    // A zlib header: deflate method, and the two bytes a multiple of 31.
    if ((bytes[0]! & 0x0f) === 8 && (bytes[0]! * 256 + bytes[1]!) % 31 === 0)
      return inflateSync(bytes, { maxOutputLength: maxInflatedBytes });
  } catch {
    return undefined;
  }
  return undefined;
}

/** What bytes say: text, a zlib / gzip stream of text, or text under a XOR key; undefined otherwise. */
export function textOrKeyed(bytes: Buffer): string | undefined {
  const unpacked = inflated(bytes);
  if (unpacked) {
    const text = unpacked.toString('utf8');
    if (printable(text)) return text;
  }
  const text = bytes.toString('utf8');
  if (printable(text)) return text;
  return keyedText([...bytes.subarray(0, maxKeySearchItemBytes)]);
}

// Base85 in its two common alphabets: RFC 1924 / Python's b85 and Adobe's ascii85 ('!'..'u').
const b85Alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~';
const b85Values = new Map([...b85Alphabet].map((char, index) => [char, index]));

function base85Bytes(text: string, valueOf: (char: string) => number | undefined): Buffer | undefined {
  const bytes: number[] = [];
  for (let start = 0; start < text.length; start += 5) {
    const group = text.slice(start, start + 5);
    let value = 0;
    for (let index = 0; index < 5; index++) {
      const digit = index < group.length ? valueOf(group[index]!) : 84;
      if (digit === undefined) return undefined;
      value = value * 85 + digit;
    }
    if (value > 0xffffffff) return undefined;
    const word = [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
    bytes.push(...word.slice(0, group.length === 5 ? 4 : group.length - 1));
  }
  return Buffer.from(bytes);
}

/**
 * Base85 (Python's b85 alphabet, or ascii85 with or without its `<~ ~>` frame), then what the bytes
 * are: text, a zlib / gzip stream, or bytes under a key. Only runs with the punctuation base85 has
 * and base64 lacks, so words and base64 are not taken for it.
 */
export function base85Decoded(text: string): string | undefined {
  let compact = text.trim();
  if (compact.startsWith('<~') && compact.endsWith('~>')) compact = compact.slice(2, -2).replace(/\s+/g, '');
  if (compact.length < 20 || /\s/.test(compact)) return undefined;
  if (!/[!#$%&()*;<=>?@^`{|}~]/.test(compact) || !/\d/.test(compact)) return undefined;
  const fromB85 = /^[0-9A-Za-z!#$%&()*+\-;<=>?@^_`{|}~]+$/.test(compact)
    ? base85Bytes(compact, (char) => b85Values.get(char))
    : undefined;
  const decodedB85 = fromB85 && textOrKeyed(fromB85);
  if (decodedB85) return decodedB85;
  if (!/^[!-u]+$/.test(compact.replace(/z/g, '!!!!!'))) return undefined;
  const fromAscii85 = base85Bytes(compact.replace(/z/g, '!!!!!'), (char) => {
    const code = char.charCodeAt(0) - 33;
    return code >= 0 && code < 85 ? code : undefined;
  });
  return fromAscii85 && textOrKeyed(fromAscii85);
}

/** How text-like character codes are: the share of letters, digits, spaces and common punctuation. */
function textShare(codes: readonly number[], transform: (code: number) => number): number {
  let good = 0;
  for (const code of codes) {
    const c = transform(code);
    if (
      (c >= 97 && c <= 122) ||
      (c >= 65 && c <= 90) ||
      (c >= 48 && c <= 57) ||
      c === 32 ||
      c === 95 ||
      c === 45 ||
      c === 46 ||
      c === 47 ||
      c === 44 ||
      c === 10
    )
      good += 1;
  }
  return good / codes.length;
}

/**
 * Codes XOR-ed with one key or shifted by one constant, undone: the key whose result is most
 * text-like, when at least 90% of it is. Undefined for codes that are already text, too few codes, or
 * a spent budget.
 */
export function keyedText(codes: readonly number[]): string | undefined {
  if (codes.length < minDecodedChars || codes.length > maxKeySearchItemBytes || keyBudget <= 0) return undefined;
  if (!codes.every((code) => Number.isInteger(code) && code >= 0 && code <= 0xffff)) return undefined;
  keyBudget -= codes.length;
  if (textShare(codes, (code) => code) >= 0.9) return undefined;
  // The key is chosen on a sample (510 passes over at most 256 codes), then checked on them all.
  const sample = codes.slice(0, 256);
  let best: { share: number; transform: (code: number) => number } | undefined;
  const consider = (transform: (code: number) => number) => {
    const share = textShare(sample, transform);
    if (!best || share > best.share) best = { share, transform };
  };
  for (let key = 1; key < 256; key++) consider((code) => code ^ key);
  for (let shift = 1; shift < 256; shift++) consider((code) => (code + shift) & 0xff);
  if (!best || best.share < 0.9) return repeatingKeyText(codes);
  const transform = best.transform;
  if (textShare(codes, transform) < 0.9) return undefined;
  const decoded = codes.map((code) => transform(code));
  if (decoded.some((code) => code < 9 || code > 0x10ffff)) return undefined;
  const text = String.fromCodePoint(...decoded);
  return printable(text) && /[a-z]{3}/i.test(text) ? text : undefined;
}

/** Key lengths the repeating-key search tries (a key of 2 to 16 bytes, as `salt.charCodeAt(i % salt.length)`). */
export const maxRepeatingKeyLength = 16;
const repeatingKeySampleCodes = 2048;

/** Text-likeness of one code for choosing a key byte: lower-case letters and spaces most, then the rest of text. */
function codeScore(code: number): number {
  if ((code >= 97 && code <= 122) || code === 32) return 3;
  if ((code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 10) return 2;
  return code === 95 || code === 45 || code === 46 || code === 47 || code === 44 || (code >= 33 && code <= 126)
    ? 1
    : -4;
}

/**
 * Bytes XOR-ed with a repeating key of 2 to 16 bytes, undone without the key: for each key length,
 * each position modulo it gets the key byte that makes its column most text-like (a column is a
 * single-byte XOR); the first length whose whole result is text wins. 255 passes over a bounded
 * sample per length, charged to the file's key-search budget.
 */
function repeatingKeyText(codes: readonly number[]): string | undefined {
  if (codes.length < 32 || codes.some((code) => code > 0xff)) return undefined;
  const sample = codes.slice(0, repeatingKeySampleCodes);
  // Every length gets its best key and the mean score that key gives; the true length (and its multiples) score
  // highest, a wrong length mixes key bytes in a column and scores lower. The shortest length within 2% of the best
  // wins.
  const candidates: { key: number[]; mean: number }[] = [];
  for (let length = 2; length <= maxRepeatingKeyLength; length++) {
    if (sample.length < length * 24 || keyBudget <= 0) break;
    keyBudget -= sample.length;
    const key: number[] = [];
    let total = 0;
    for (let column = 0; column < length; column++) {
      let bestKey = 0;
      let bestScore = -Infinity;
      for (let candidate = 0; candidate < 256; candidate++) {
        let score = 0;
        for (let at = column; at < sample.length; at += length) score += codeScore(sample[at]! ^ candidate);
        if (score > bestScore) {
          bestScore = score;
          bestKey = candidate;
        }
      }
      key.push(bestKey);
      total += bestScore;
    }
    candidates.push({ key, mean: total / sample.length });
  }
  if (candidates.length === 0) return undefined;
  const best = Math.max(...candidates.map((candidate) => candidate.mean));
  if (best <= 0) return undefined;
  // Shortest first: a multiple of the true length scores as well, and a long length over short columns can overfit.
  for (const candidate of candidates) {
    if (candidate.mean < best * 0.95) continue;
    const decoded = codes.map((code, at) => code ^ candidate.key[at % candidate.key.length]!);
    // Code is punctuation-heavy (a shell script is about 86% letters, digits and spaces): the test is that nearly
    // every byte is printable and most are text, which no wrong key over random-looking bytes reaches.
    let printableCodes = 0;
    for (const code of decoded) if ((code >= 32 && code <= 126) || code === 10 || code === 9) printableCodes += 1;
    if (printableCodes / decoded.length < 0.97 || textShare(decoded, (code) => code) < 0.75) continue;
    const text = String.fromCharCode(...decoded);
    if (printable(text) && /[a-z]{3}/i.test(text)) return text;
  }
  return undefined;
}

// English letter frequencies (per mille), a to z.
const english = [82, 15, 28, 43, 127, 22, 20, 61, 70, 2, 8, 40, 24, 67, 75, 19, 1, 60, 63, 91, 28, 10, 24, 2, 20, 1];
const logEnglish = english.map((share) => Math.log(share / 1000));

/**
 * Letters rotated back (rot-n) when another rotation reads much more like English than the text as
 * written: the best of the 25 by letter frequencies, one counting pass. Undefined otherwise.
 */
export function rotDecoded(text: string): string | undefined {
  const counts = new Array<number>(26).fill(0);
  let letters = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i) | 32;
    if (code >= 97 && code <= 122) {
      counts[code - 97]! += 1;
      letters += 1;
    }
  }
  if (letters < 10) return undefined;
  const score = (shift: number) =>
    counts.reduce((sum, count, letter) => sum + count * logEnglish[(letter + shift) % 26]!, 0) / letters;
  let bestShift = 0;
  let bestScore = score(0);
  const asWritten = bestScore;
  for (let shift = 1; shift < 26; shift++) {
    const candidate = score(shift);
    if (candidate > bestScore) {
      bestScore = candidate;
      bestShift = shift;
    }
  }
  // Nats per letter: English scores about -2.9, rotated English about -3.9 and worse.
  if (bestShift === 0 || bestScore - asWritten < 0.3 || bestScore < -3.3) return undefined;
  return rotate(text, bestShift);
}

export type Blob = { text: string; line: number; encoding: 'base64' | 'hex' | 'base32' | 'char-codes' | 'xor' };

const blobPattern = /[A-Za-z0-9+/_-]{16,}={0,2}|(?:0x)?[0-9a-fA-F]{12,}|\d{1,5}(?:\s*,\s*\d{1,5}){5,}/g;

/** Encoded runs inside prose or data (a `.md`, `.txt` or `.json` file), decoded. */
export function proseBlobs(text: string): Blob[] {
  const found: Blob[] = [];
  let line = 1;
  let scanned = 0;
  for (const match of text.matchAll(blobPattern)) {
    const index = match.index ?? 0;
    for (let k = scanned; k < index; k++) if (text.charCodeAt(k) === 10) line += 1;
    scanned = index;
    const run = match[0];
    if (/^\d/.test(run) && run.includes(',')) {
      const codes = run.split(',').map((part) => Number(part.trim()));
      if (codes.every((code) => code >= 9 && code <= 0x10ffff)) {
        const plain = String.fromCodePoint(...codes);
        if (printable(plain)) found.push({ text: plain, line, encoding: 'char-codes' });
      }
      // Printable is not text: codes XOR-ed with a key are mostly printable nonsense.
      const keyed = keyedText(codes);
      if (keyed) found.push({ text: keyed, line, encoding: 'xor' });
      continue;
    }
    const base32 = base32Decoded(run);
    if (base32) found.push({ text: base32, line, encoding: 'base32' });
    const hex = hexDecoded(run);
    if (hex) found.push({ text: hex, line, encoding: 'hex' });
    const base64 = !base32 && !hex ? base64Decoded(run) : undefined;
    if (base64) found.push({ text: base64, line, encoding: 'base64' });
  }
  return found;
}

/** Letters rotated by `shift` places (rot-n), everything else kept. */
export function rotate(text: string, shift: number): string {
  const by = ((shift % 26) + 26) % 26;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 65 && code <= 90) out += String.fromCharCode(((code - 65 + by) % 26) + 65);
    else if (code >= 97 && code <= 122) out += String.fromCharCode(((code - 97 + by) % 26) + 97);
    else out += text[i];
  }
  return out;
}

const base32Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 (either case, padding optional), or undefined when it is not. */
export function base32Bytes(text: string): Buffer | undefined {
  const compact = text.trim().replace(/=+$/, '').toUpperCase();
  if (!/^[A-Z2-7]+$/.test(compact)) return undefined;
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of compact) {
    buffer = (buffer << 5) | base32Alphabet.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
      buffer &= (1 << bits) - 1;
    }
  }
  return Buffer.from(bytes);
}
