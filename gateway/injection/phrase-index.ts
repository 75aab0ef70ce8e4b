// Word-sequence lookup for the gateway's hot path. A phrase is a sequence of words in the screening
// normal form (lower-case runs of letters and digits, everything else a separator); each word is
// hashed to two 32-bit lanes and a phrase key is the lanes folded word by word, packed into one
// safe integer. Scanning a text walks it once, hashing words in place (no substrings, no regex on
// ASCII), and at each word extends the phrase while its key is a known prefix: time linear in the
// text (times the rarely reached depth of a partial match, at most the longest phrase), memory the
// word buffer of one string.

/** A phrase to look for: its words in normal form, joined by single spaces. */
export interface Phrase {
  text: string;
}

export interface PhraseIndex {
  /** Keys of every prefix of every phrase (the phrase itself included). */
  readonly prefixes: Set<number>;
  /** Phrase key → the phrase's position in the list it was built from. */
  readonly full: Map<number, number>;
  /** Words in the longest phrase: no partial match grows past it. */
  readonly maxWords: number;
}

const laneSeed1 = 0x811c9dc5;
const laneSeed2 = 0x3c6ef372;
const lanePrime1 = 0x01000193;
const lanePrime2 = 0x5bd1e995;
const twoTo21 = 2097152;

const phraseKey = (lane1: number, lane2: number) => (lane1 >>> 0) * twoTo21 + ((lane2 >>> 0) >>> 11);

/** Letters and digits beyond ASCII, read as code points (so one astral letter is one character). */
const nonAsciiWordChar = /[\p{L}\p{N}]/uy;

const built = new WeakMap<readonly Phrase[], PhraseIndex>();

/**
 * Builds the index (once per list: the same array gets the same index); a phrase whose text was
 * already given keeps its first position.
 */
export function indexPhrases(phrases: readonly Phrase[]): PhraseIndex {
  const cached = built.get(phrases);
  if (cached) return cached;
  const index = buildIndex(phrases);
  built.set(phrases, index);
  return index;
}

function buildIndex(phrases: readonly Phrase[]): PhraseIndex {
  const prefixes = new Set<number>();
  const full = new Map<number, number>();
  let maxWords = 0;
  phrases.forEach((phrase, position) => {
    let lane1 = laneSeed1;
    let lane2 = laneSeed2;
    const words = phrase.text.split(' ').filter((word) => word !== '');
    if (words.length === 0) return;
    maxWords = Math.max(maxWords, words.length);
    for (const word of words) {
      let word1 = 0x811c9dc5;
      let word2 = 0x27d4eb2d;
      for (let index = 0; index < word.length; index++) {
        const code = word.charCodeAt(index);
        word1 = Math.imul(word1 ^ code, 0x01000193);
        word2 = Math.imul(word2 ^ code, 0x85ebca6b);
      }
      lane1 = Math.imul(lane1, lanePrime1) ^ word1;
      lane2 = Math.imul(lane2, lanePrime2) ^ word2;
      prefixes.add(phraseKey(lane1, lane2));
    }
    const key = phraseKey(lane1, lane2);
    if (!full.has(key)) full.set(key, position);
  });
  return { prefixes, full, maxWords };
}

// The word hashes of the string being scanned, reused from call to call (grown when a string has more words).
let wordLane1 = new Int32Array(1024);
let wordLane2 = new Int32Array(1024);

function grow(words: number): void {
  if (words < wordLane1.length) return;
  const size = Math.max(words + 1, wordLane1.length * 2);
  const next1 = new Int32Array(size);
  const next2 = new Int32Array(size);
  next1.set(wordLane1);
  next2.set(wordLane2);
  wordLane1 = next1;
  wordLane2 = next2;
}

/** Backslash escapes that stand for a separator (`\n`, `\t`, `\"`, …): text escaped once more reads the same. */
/** n, r, t, b, f: the letters of the escapes that stand for a separator. */
const escapedLetters = new Set([0x6e, 0x72, 0x74, 0x62, 0x66]);

/** Hashes the words of `text` into the shared buffers; returns how many. */
function hashWords(text: string): number {
  const lower = text.toLowerCase();
  const length = lower.length;
  let count = 0;
  let inWord = false;
  let word1 = 0;
  let word2 = 0;
  for (let index = 0; index < length; index++) {
    const code = lower.charCodeAt(index);
    let isWord: boolean;
    let width = 1;
    if (code < 0x80) {
      isWord = (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39);
      // An escape sequence behind any number of backslashes (text JSON-encoded once or twice more)
      // separates words as the character it stands for would; `\u` and four hex digits likewise. The
      // same rule as screening/word-tokens.ts, which made the phrases.
      if (code === 0x5c) {
        let run = 1;
        while (index + run < length && lower.charCodeAt(index + run) === 0x5c) run += 1;
        const next = index + run < length ? lower.charCodeAt(index + run) : -1;
        if (escapedLetters.has(next)) width = run + 1;
        else if (next === 0x75 && /^[0-9a-f]{4}$/.test(lower.slice(index + run + 1, index + run + 5))) width = run + 5;
        else width = run;
      }
    } else {
      nonAsciiWordChar.lastIndex = index;
      isWord = nonAsciiWordChar.test(lower);
      if (code >= 0xd800 && code <= 0xdbff && index + 1 < length) width = 2;
    }
    if (isWord) {
      if (!inWord) {
        inWord = true;
        word1 = 0x811c9dc5;
        word2 = 0x27d4eb2d;
      }
      for (let unit = 0; unit < width; unit++) {
        const part = lower.charCodeAt(index + unit);
        word1 = Math.imul(word1 ^ part, 0x01000193);
        word2 = Math.imul(word2 ^ part, 0x85ebca6b);
      }
    } else if (inWord) {
      grow(count);
      wordLane1[count] = word1;
      wordLane2[count] = word2;
      count += 1;
      inWord = false;
    }
    index += width - 1;
  }
  if (inWord) {
    grow(count);
    wordLane1[count] = word1;
    wordLane2[count] = word2;
    count += 1;
  }
  return count;
}

/**
 * Calls `found` with the position of every phrase occurring in `text` as a whole-word sequence (a
 * phrase occurring twice is reported twice).
 */
export function scanPhrases(index: PhraseIndex, text: string, found: (position: number) => void): void {
  if (index.maxWords === 0 || text.length === 0) return;
  const count = hashWords(text);
  for (let start = 0; start < count; start++) {
    let lane1 = laneSeed1;
    let lane2 = laneSeed2;
    const end = Math.min(count, start + index.maxWords);
    for (let word = start; word < end; word++) {
      lane1 = Math.imul(lane1, lanePrime1) ^ wordLane1[word]!;
      lane2 = Math.imul(lane2, lanePrime2) ^ wordLane2[word]!;
      const key = phraseKey(lane1, lane2);
      if (!index.prefixes.has(key)) break;
      const position = index.full.get(key);
      if (position !== undefined) found(position);
    }
  }
}
