// The one normal form every fingerprint and every scanned text is compared in: lower-case words of
// letters and digits, everything else a separator. Case, whitespace, punctuation, quoting style and
// line wrapping then cannot hide a match, and matching is a lookup of whole word sequences.

const wordPattern = /[\p{L}\p{N}]+/gu;
// An escape sequence (`\n`, `\t`, `\u00e9`, …) behind any number of backslashes is a separator, as the
// character it stands for would be: the same text encoded once more (a conversation put into a prompt as
// JSON) must give the same words, not `n1m30s` for the `\n1m30s` of a source file.
const escapeSequence = /\\+(?:[nrtbf]|u[0-9a-f]{4})/g;

/** Lower case, escape sequences blanked to spaces of the same length (positions and lines kept). */
function comparable(text: string): string {
  const lower = text.toLowerCase();
  return lower.includes('\\') ? lower.replace(escapeSequence, (sequence) => ' '.repeat(sequence.length)) : lower;
}

export function wordTokens(text: string): string[] {
  return comparable(text).match(wordPattern) ?? [];
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
  const lower = comparable(text);
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
