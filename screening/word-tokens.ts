// The one normal form every fingerprint and every scanned text is compared in: lower-case words of
// letters and digits, everything else a separator. Case, whitespace, punctuation, quoting style and
// line wrapping then cannot hide a match, and matching is a lookup of whole word sequences.

const wordPattern = /[\p{L}\p{N}]+/gu;

export function wordTokens(text: string): string[] {
  return text.toLowerCase().match(wordPattern) ?? [];
}

/** Words joined by single spaces: the key a fingerprint is stored and looked up under. */
export function normalizeWords(text: string): string {
  return wordTokens(text).join(' ');
}

export type LocatedWords = { words: string[]; lines: number[] };

/** Words of a multi-line text with the 1-based line each starts on (offset by firstLine - 1). */
export function wordsWithLines(text: string, firstLine = 1): LocatedWords {
  const words: string[] = [];
  const lines: number[] = [];
  const lower = text.toLowerCase();
  let line = firstLine;
  let scanned = 0;
  for (const match of lower.matchAll(wordPattern)) {
    const index = match.index ?? 0;
    for (let k = scanned; k < index; k++) if (lower.charCodeAt(k) === 10) line += 1;
    scanned = index;
    words.push(match[0]);
    lines.push(line);
  }
  return { words, lines };
}
