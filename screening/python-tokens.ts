// A forgiving Python tokenizer with the token shapes of js-tokens.ts, so the constant evaluator of
// the static scan and the similarity check read policy.py as they read policy.ts. Not a parser:
// indentation is ignored, unterminated strings end at the end of the text, it never throws.
// Comments, words and strings come from python-scan.ts; this file names keywords, numbers and operators.
import type { Token } from './js-tokens.ts';
import { scanPython } from './python-scan.ts';

export const pythonKeywords = new Set([
  'False',
  'None',
  'True',
  'and',
  'as',
  'assert',
  'async',
  'await',
  'break',
  'class',
  'continue',
  'def',
  'del',
  'elif',
  'else',
  'except',
  'finally',
  'for',
  'from',
  'global',
  'if',
  'import',
  'in',
  'is',
  'lambda',
  'nonlocal',
  'not',
  'or',
  'pass',
  'raise',
  'return',
  'try',
  'while',
  'with',
  'yield',
  'match',
  'case',
]);
const operators = [
  '**=',
  '//=',
  '>>=',
  '<<=',
  '...',
  '->',
  ':=',
  '**',
  '//',
  '==',
  '!=',
  '<=',
  '>=',
  '<<',
  '>>',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '@=',
];
const numberPattern =
  /^(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?)[jJ]?/;

export function tokenizePython(code: string): Token[] {
  const tokens: Token[] = [];
  scanPython(code, {
    comment: (raw, line, start) => tokens.push({ type: 'comment', raw, line, start }),
    word: (word, line, start) =>
      tokens.push({ type: pythonKeywords.has(word) ? 'keyword' : 'identifier', raw: word, line, start }),
    string: ({ raw, value, line, start }) => tokens.push({ type: 'string', raw, value, line, start }),
    other(at, line) {
      const char = code[at]!;
      if (/[0-9]/.test(char) || (char === '.' && /[0-9]/.test(code[at + 1] ?? ''))) {
        // A bounded window keeps one number's match constant work on any input.
        const raw = numberPattern.exec(code.slice(at, at + 400))?.[0] || char;
        tokens.push({ type: 'number', raw, line, start: at });
        return raw.length;
      }
      const punct = operators.find((candidate) => code.startsWith(candidate, at)) ?? char;
      tokens.push({ type: 'punct', raw: punct, line, start: at });
      return punct.length;
    },
  });
  return tokens;
}
