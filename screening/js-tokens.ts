// A small, forgiving JavaScript/TypeScript tokenizer for pre-evaluation: the static scan needs string
// literals (cooked) with their lines, and the similarity check needs code without comments. Hostile
// input must never throw, so unterminated strings and comments simply end at the end of the text.
// Not a parser: the one real ambiguity (`/` as division or regex) is settled by the previous token.

export type TokenType = 'identifier' | 'keyword' | 'string' | 'template' | 'number' | 'regex' | 'punct' | 'comment';
/** Where a template chunk sits: `full` has no `${}`, `head` ends at one, `middle`/`tail` follow one. */
export type TemplatePart = 'full' | 'head' | 'middle' | 'tail';

export type Token = {
  type: TokenType;
  /** The source text of the token. */
  raw: string;
  /** Strings and template chunks: the cooked value (escapes resolved). */
  value?: string;
  templatePart?: TemplatePart;
  /** 1-based line where the token starts. */
  line: number;
  start: number;
};

export const keywords = new Set([
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'debugger',
  'default',
  'delete',
  'do',
  'else',
  'export',
  'extends',
  'finally',
  'for',
  'function',
  'if',
  'import',
  'in',
  'instanceof',
  'new',
  'return',
  'super',
  'switch',
  'this',
  'throw',
  'try',
  'typeof',
  'var',
  'void',
  'while',
  'with',
  'yield',
  'let',
  'static',
  'enum',
  'await',
  'async',
  'of',
  'null',
  'true',
  'false',
  'undefined',
  'get',
  'set',
  'from',
  'as',
  'type',
  'interface',
  'implements',
  'private',
  'protected',
  'public',
  'readonly',
  'declare',
  'namespace',
  'abstract',
  'keyof',
  'infer',
  'is',
  'satisfies',
  'unknown',
  'any',
  'never',
  'string',
  'number',
  'boolean',
  'object',
  'symbol',
  'bigint',
]);

// After these keywords a `/` starts a regex, not a division.
const regexAfterKeywords = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
]);
const punctuators = [
  '>>>=',
  '...',
  '===',
  '!==',
  '**=',
  '<<=',
  '>>=',
  '>>>',
  '&&=',
  '||=',
  '??=',
  '=>',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '?.',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '**',
  '<<',
  '>>',
];
const identifierStart = /[\p{L}\p{Nl}$_]/u;
const identifierPart = /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$_\u200c\u200d]/u;

/** Resolves JavaScript escape sequences in the body of a string or template literal. */
export function cookEscapes(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char !== '\\') {
      out += char;
      continue;
    }
    const next = body[i + 1];
    i += 1;
    if (next === undefined) break;
    switch (next) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'v':
        out += '\v';
        break;
      case '0':
        out += '\0';
        break;
      case '\r':
        if (body[i + 1] === '\n') i += 1;
        break;
      case '\n':
      case '\u2028':
      case '\u2029':
        break;
      case 'x': {
        const hex = body.slice(i + 1, i + 3);
        if (/^[0-9a-fA-F]{2}$/.test(hex)) {
          out += String.fromCharCode(parseInt(hex, 16));
          i += 2;
        } else out += 'x';
        break;
      }
      case 'u': {
        const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(body.slice(i + 1));
        const plain = /^[0-9a-fA-F]{4}/.exec(body.slice(i + 1));
        const code = braced ? parseInt(braced[1]!, 16) : plain ? parseInt(plain[0], 16) : undefined;
        if (code !== undefined && code <= 0x10ffff) {
          out += String.fromCodePoint(code);
          i += braced ? braced[0].length : 4;
        } else out += 'u';
        break;
      }
      default:
        out += next;
    }
  }
  return out;
}

function regexAllowed(previous: Token | undefined): boolean {
  if (!previous) return true;
  if (previous.type === 'keyword')
    return (
      regexAfterKeywords.has(previous.raw) ||
      !['this', 'super', 'null', 'true', 'false', 'undefined'].includes(previous.raw)
    );
  if (
    previous.type === 'identifier' ||
    previous.type === 'number' ||
    previous.type === 'string' ||
    previous.type === 'regex'
  )
    return false;
  if (previous.type === 'template') return previous.templatePart === 'head' || previous.templatePart === 'middle';
  return ![')', ']', '}', '++', '--'].includes(previous.raw);
}

/** Tokens of `code`, comments included; never throws. */
export function tokenize(code: string): Token[] {
  const tokens: Token[] = [];
  // For each open `${`: the brace depth at which its closing `}` resumes the template.
  const templateStack: number[] = [];
  let braceDepth = 0;
  let line = 1;
  let i = 0;
  let previous: Token | undefined;
  const push = (token: Token) => {
    tokens.push(token);
    if (token.type !== 'comment') previous = token;
  };
  const countLines = (text: string) => {
    for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) === 10) line += 1;
  };
  // Reads a template chunk starting just after ` or }, up to ` or ${.
  const readTemplateChunk = (from: number, opening: 'start' | 'resume') => {
    let j = from;
    while (j < code.length && code[j] !== '`' && !(code[j] === '$' && code[j + 1] === '{'))
      j += code[j] === '\\' ? 2 : 1;
    const body = code.slice(from, Math.min(j, code.length));
    const closed = j < code.length && code[j] === '`';
    const opensExpression = j < code.length && !closed;
    const part: TemplatePart =
      opening === 'start' ? (opensExpression ? 'head' : 'full') : opensExpression ? 'middle' : 'tail';
    const end = Math.min(code.length, j + (opensExpression ? 2 : 1));
    const token: Token = {
      type: 'template',
      raw: code.slice(from - 1, end),
      value: cookEscapes(body),
      templatePart: part,
      line,
      start: from - 1,
    };
    countLines(code.slice(from, end));
    push(token);
    if (opensExpression) {
      templateStack.push(braceDepth);
      braceDepth += 1;
    }
    return end;
  };

  while (i < code.length) {
    const char = code[i]!;
    if (char === '\n') {
      line += 1;
      i += 1;
      continue;
    }
    if (/\s/.test(char)) {
      i += 1;
      continue;
    }
    const start = i;
    const startLine = line;
    if (char === '/' && code[i + 1] === '/') {
      let j = i;
      while (j < code.length && code[j] !== '\n') j += 1;
      push({ type: 'comment', raw: code.slice(i, j), line: startLine, start });
      i = j;
      continue;
    }
    if (char === '/' && code[i + 1] === '*') {
      const close = code.indexOf('*/', i + 2);
      const j = close < 0 ? code.length : close + 2;
      const raw = code.slice(i, j);
      push({ type: 'comment', raw, line: startLine, start });
      countLines(raw);
      i = j;
      continue;
    }
    if (char === '"' || char === "'") {
      let j = i + 1;
      while (j < code.length && code[j] !== char && code[j] !== '\n') j += code[j] === '\\' ? 2 : 1;
      const end = Math.min(code.length, code[j] === char ? j + 1 : j);
      const raw = code.slice(i, end);
      push({
        type: 'string',
        raw,
        value: cookEscapes(code.slice(i + 1, Math.min(j, code.length))),
        line: startLine,
        start,
      });
      countLines(raw);
      i = end;
      continue;
    }
    if (char === '`') {
      i = readTemplateChunk(i + 1, 'start');
      continue;
    }
    if (char === '}' && templateStack.length > 0 && templateStack[templateStack.length - 1] === braceDepth - 1) {
      templateStack.pop();
      braceDepth -= 1;
      i = readTemplateChunk(i + 1, 'resume');
      continue;
    }
    if (/[0-9]/.test(char) || (char === '.' && /[0-9]/.test(code[i + 1] ?? ''))) {
      const match =
        /^(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?)n?/.exec(
          code.slice(i, i + 400),
        );
      const raw = match?.[0] || char;
      push({ type: 'number', raw, line: startLine, start });
      i += raw.length;
      continue;
    }
    if (identifierStart.test(char) || char === '\\' || char === '#') {
      let j = i + 1;
      while (j < code.length && identifierPart.test(code[j]!)) j += 1;
      const raw = code.slice(i, j);
      push({ type: keywords.has(raw) ? 'keyword' : 'identifier', raw, line: startLine, start });
      i = j;
      continue;
    }
    if (char === '/' && regexAllowed(previous)) {
      let j = i + 1;
      let inClass = false;
      while (j < code.length && code[j] !== '\n') {
        const c = code[j];
        if (c === '\\') {
          j += 2;
          continue;
        }
        if (c === '[') inClass = true;
        else if (c === ']') inClass = false;
        else if (c === '/' && !inClass) break;
        j += 1;
      }
      j = Math.min(j + 1, code.length);
      while (j < code.length && /[a-z]/i.test(code[j]!)) j += 1;
      push({ type: 'regex', raw: code.slice(i, j), line: startLine, start });
      i = j;
      continue;
    }
    const punct = punctuators.find((candidate) => code.startsWith(candidate, i)) ?? char;
    if (punct === '{') braceDepth += 1;
    if (punct === '}') braceDepth = Math.max(0, braceDepth - 1);
    push({ type: 'punct', raw: punct, line: startLine, start });
    i += punct.length;
  }
  return tokens;
}
