// String literals, test function names and long numbers of a Python test file: what a policy that
// games the hidden tests would copy. A scanner, not a parser; it never throws on odd input.
import { cookEscapes } from './js-tokens.ts';

export type PythonLiteral = { value: string; line: number; formatted: boolean };

const prefixPattern = /^[rRbBuUfF]{0,2}$/;

export function pythonStringLiterals(source: string): PythonLiteral[] {
  const found: PythonLiteral[] = [];
  let line = 1;
  let i = 0;
  while (i < source.length) {
    const char = source[i]!;
    if (char === '\n') { line += 1; i += 1; continue; }
    if (char === '#') {
      while (i < source.length && source[i] !== '\n') i += 1;
      continue;
    }
    if (char !== '"' && char !== "'") { i += 1; continue; }
    // The prefix letters (r, b, f, ...) sit just before the quote.
    let p = i;
    while (p > 0 && /[A-Za-z]/.test(source[p - 1]!)) p -= 1;
    const prefix = source.slice(p, i);
    const isPrefix = prefixPattern.test(prefix);
    const raw = isPrefix && /[rR]/.test(prefix);
    const formatted = isPrefix && /[fF]/.test(prefix);
    const triple = source.startsWith(char.repeat(3), i);
    const quote = triple ? char.repeat(3) : char;
    const startLine = line;
    let j = i + quote.length;
    while (j < source.length && !source.startsWith(quote, j) && (triple || source[j] !== '\n')) {
      if (source[j] === '\\') {
        if (source[j + 1] === '\n') line += 1;
        j += 2;
        continue;
      }
      if (source[j] === '\n') line += 1;
      j += 1;
    }
    const body = source.slice(i + quote.length, Math.min(j, source.length));
    found.push({ value: raw ? body : cookEscapes(body), line: startLine, formatted });
    i = Math.min(source.length, j + quote.length);
  }
  return found;
}

export function pythonTestNames(source: string): { name: string; line: number }[] {
  const names: { name: string; line: number }[] = [];
  source.split('\n').forEach((text, index) => {
    const match = /^\s*(?:async\s+)?def\s+(test_\w+)\s*\(/.exec(text) ?? /^\s*class\s+(Test\w+)\s*[(:]/.exec(text);
    if (match) names.push({ name: match[1]!, line: index + 1 });
  });
  return names;
}
