// A forgiving Python tokenizer with the token shapes of js-tokens.ts, so the constant evaluator of
// the static scan and the similarity check read policy.py as they read policy.ts. Not a parser:
// indentation is ignored, unterminated strings end at the end of the text, it never throws.
import { cookEscapes, type Token } from './js-tokens.ts';

export const pythonKeywords = new Set([
  'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif', 'else',
  'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise',
  'return', 'try', 'while', 'with', 'yield', 'match', 'case',
]);
const operators = ['**=', '//=', '>>=', '<<=', '...', '->', ':=', '**', '//', '==', '!=', '<=', '>=', '<<', '>>', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '@='];
const identifierStart = /[\p{L}\p{Nl}_]/u;
const identifierPart = /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}_]/u;
const stringPrefix = /^(?:[rRbBuUfF]{1,2})$/;

export function tokenizePython(code: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let i = 0;
  while (i < code.length) {
    const char = code[i]!;
    if (char === '\n') { line += 1; i += 1; continue; }
    if (char === ' ' || char === '\t' || char === '\r' || char === '\\' || char === '\f') { i += 1; continue; }
    const start = i;
    if (char === '#') {
      let j = i;
      while (j < code.length && code[j] !== '\n') j += 1;
      tokens.push({ type: 'comment', raw: code.slice(i, j), line, start });
      i = j;
      continue;
    }
    if (identifierStart.test(char)) {
      let j = i + 1;
      while (j < code.length && identifierPart.test(code[j]!)) j += 1;
      const word = code.slice(i, j);
      if ((code[j] === '"' || code[j] === "'") && stringPrefix.test(word)) {
        i = readString(j, word);
        continue;
      }
      tokens.push({ type: pythonKeywords.has(word) ? 'keyword' : 'identifier', raw: word, line, start });
      i = j;
      continue;
    }
    if (char === '"' || char === "'") {
      i = readString(i, '');
      continue;
    }
    if (/[0-9]/.test(char) || (char === '.' && /[0-9]/.test(code[i + 1] ?? ''))) {
      const match = /^(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?)[jJ]?/.exec(code.slice(i, i + 400));
      const raw = match?.[0] || char;
      tokens.push({ type: 'number', raw, line, start });
      i += raw.length;
      continue;
    }
    const punct = operators.find((candidate) => code.startsWith(candidate, i)) ?? char;
    tokens.push({ type: 'punct', raw: punct, line, start });
    i += punct.length;
  }
  return tokens;

  /** A string literal whose quote is at `quoteAt`, with its prefix letters; returns the index past it. */
  function readString(quoteAt: number, prefix: string): number {
    const quoteChar = code[quoteAt]!;
    const triple = code.startsWith(quoteChar.repeat(3), quoteAt);
    const quote = triple ? quoteChar.repeat(3) : quoteChar;
    const startLine = line;
    let j = quoteAt + quote.length;
    while (j < code.length && !code.startsWith(quote, j) && (triple || code[j] !== '\n')) {
      if (code[j] === '\\') {
        if (code[j + 1] === '\n') line += 1;
        j += 2;
        continue;
      }
      if (code[j] === '\n') line += 1;
      j += 1;
    }
    const body = code.slice(quoteAt + quote.length, Math.min(j, code.length));
    const end = Math.min(code.length, j + (j < code.length ? quote.length : 0));
    const raw = /[rR]/.test(prefix);
    tokens.push({ type: 'string', raw: code.slice(quoteAt - prefix.length, end), value: raw ? body : cookEscapes(body), line: startLine, start: quoteAt - prefix.length });
    return end;
  }
}
