// The lexical skeleton both Python readers share (python-tokens.ts, python-literals.ts): one pass
// over the text that counts lines and recognises comments, words and string literals of any prefix
// and quoting, handing everything else to the caller. Forgiving: unterminated strings end at the end
// of their line (or of the text when triple-quoted), it never throws, and each character is read a
// bounded number of times, so the work is linear in the input.
import { cookEscapes } from './js-tokens.ts';

export type PythonString = {
  /** The source text, prefix and quotes included. */
  raw: string;
  /** The prefix letters before the quote (`r`, `b`, `f`, `rb`, ...), empty for none. */
  prefix: string;
  /** The cooked value (escapes resolved unless the prefix makes it raw). */
  value: string;
  /** 1-based line of the opening quote. */
  line: number;
  start: number;
};

export type PythonScanVisitor = {
  comment?(raw: string, line: number, start: number): void;
  /** An identifier or keyword that is not a string prefix. */
  word?(word: string, line: number, start: number): void;
  string?(literal: PythonString): void;
  /** Any other character that is not white space; returns how many characters it takes (at least one). */
  other?(at: number, line: number): number;
};

const identifierStart = /[\p{L}\p{Nl}_]/u;
const identifierPart = /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}_]/u;
const stringPrefix = /^(?:[rRbBuUfF]{1,2})$/;

export function scanPython(source: string, visitor: PythonScanVisitor): void {
  let line = 1;
  let i = 0;
  while (i < source.length) {
    const char = source[i]!;
    if (char === '\n') {
      line += 1;
      i += 1;
      continue;
    }
    if (char === ' ' || char === '\t' || char === '\r' || char === '\\' || char === '\f') {
      i += 1;
      continue;
    }
    const start = i;
    if (char === '#') {
      let j = i;
      while (j < source.length && source[j] !== '\n') j += 1;
      visitor.comment?.(source.slice(i, j), line, start);
      i = j;
      continue;
    }
    if (identifierStart.test(char)) {
      let j = i + 1;
      while (j < source.length && identifierPart.test(source[j]!)) j += 1;
      const word = source.slice(i, j);
      if ((source[j] === '"' || source[j] === "'") && stringPrefix.test(word)) {
        i = readString(j, word);
        continue;
      }
      visitor.word?.(word, line, start);
      i = j;
      continue;
    }
    if (char === '"' || char === "'") {
      i = readString(i, '');
      continue;
    }
    i += Math.max(1, visitor.other?.(i, line) ?? 1);
  }

  /** The string literal whose quote is at `quoteAt`, with its prefix letters; returns the index past it. */
  function readString(quoteAt: number, prefix: string): number {
    const quoteChar = source[quoteAt]!;
    const triple = source.startsWith(quoteChar.repeat(3), quoteAt);
    const quote = triple ? quoteChar.repeat(3) : quoteChar;
    const startLine = line;
    let j = quoteAt + quote.length;
    while (j < source.length && !source.startsWith(quote, j) && (triple || source[j] !== '\n')) {
      if (source[j] === '\\') {
        if (source[j + 1] === '\n') line += 1;
        j += 2;
        continue;
      }
      if (source[j] === '\n') line += 1;
      j += 1;
    }
    const body = source.slice(quoteAt + quote.length, Math.min(j, source.length));
    // Past the closing quote; an unterminated one-line string stops before its newline, which the main loop counts.
    const end = source.startsWith(quote, j) ? j + quote.length : Math.min(j, source.length);
    const start = quoteAt - prefix.length;
    const value = /[rR]/.test(prefix) ? body : cookEscapes(body);
    visitor.string?.({ raw: source.slice(start, end), prefix, value, line: startLine, start });
    return end;
  }
}
