// The strings a source file holds, as a reader of the code would see them at run time where that can
// be seen statically: literals (escapes resolved), concatenations and `[...].join()`, templates of
// literal pieces, `String.fromCharCode` and arrays of character codes, reversals, and base64 or hex
// payloads decoded. A policy hiding scenario text behind such tricks is caught by what it decodes to.
import { tokenize, type Token } from './js-tokens.ts';

export type Encoding = 'plain' | 'base64' | 'hex' | 'joined' | 'char-codes' | 'reversed';
export type DecodedString = { text: string; line: number; encoding: Encoding };

/** Bounds that keep hostile input cheap: long chains and huge values are cut, not followed. */
const maxValueChars = 200_000;
const maxArrayItems = 20_000;
/** All the text one file may emit: a 32 KB source repeating a 200 k constant must not become gigabytes. */
const maxEmittedChars = 8_000_000;
const minDecodedChars = 6;

type Flags = { joined: boolean; charCodes: boolean; reversed: boolean };
type Value = { kind: 'string'; text: string } | { kind: 'number'; value: number } | { kind: 'array'; items: Value[] };
type Evaluated = { value: Value; end: number; flags: Flags };

const noFlags = (): Flags => ({ joined: false, charCodes: false, reversed: false });
const merge = (a: Flags, b: Flags): Flags => ({ joined: a.joined || b.joined, charCodes: a.charCodes || b.charCodes, reversed: a.reversed || b.reversed });
/** parts.join(separator) cut at maxValueChars without ever building the whole string. */
function joinBounded(parts: readonly string[], separator: string): string {
  const kept: string[] = [];
  let length = 0;
  for (const part of parts) {
    if (length >= maxValueChars) break;
    kept.push(part);
    length += part.length + separator.length;
  }
  return kept.join(separator).slice(0, maxValueChars);
}

const asText = (value: Value): string | undefined => (value.kind === 'string' ? value.text : value.kind === 'number' ? String(value.value) : undefined);

function numberOf(raw: string): number | undefined {
  const cleaned = raw.replace(/_/g, '').replace(/n$/, '');
  const value = /^0[bBoOxX]/.test(cleaned) ? Number(cleaned) : Number.parseFloat(cleaned);
  return Number.isFinite(value) ? value : undefined;
}

/** Printable text: no replacement characters, few control characters. */
function printable(text: string): boolean {
  if (text.length < minDecodedChars || text.includes('\ufffd')) return false;
  let control = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 32 && code !== 9 && code !== 10 && code !== 13) control += 1;
  }
  return control / text.length < 0.05;
}

function charCodesText(items: Value[]): string | undefined {
  if (items.length < 4 || !items.every((item) => item.kind === 'number' && Number.isInteger(item.value) && item.value >= 9 && item.value <= 0x10ffff)) return undefined;
  const text = String.fromCodePoint(...items.map((item) => (item as { value: number }).value));
  return printable(text) ? text : undefined;
}

/** A tiny evaluator of constant string expressions over the token stream. */
class ConstantEvaluator {
  readonly constants = new Map<string, { value: Value; flags: Flags }>();
  constructor(private readonly tokens: Token[]) {}

  private at(index: number): Token | undefined {
    return this.tokens[index];
  }
  private is(index: number, raw: string): boolean {
    const token = this.tokens[index];
    return token !== undefined && (token.type === 'punct' || token.type === 'identifier' || token.type === 'keyword') && token.raw === raw;
  }

  /** expression := term ('+' term)*; chains start once, so results at depth 0 are remembered. */
  expression(index: number, depth = 0): Evaluated | undefined {
    if (depth === 0 && this.memo.has(index)) return this.memo.get(index);
    const result = depth > 20 ? undefined : this.sum(index, depth);
    if (depth === 0) this.memo.set(index, result);
    return result;
  }
  private readonly memo = new Map<number, Evaluated | undefined>();

  private sum(index: number, depth: number): Evaluated | undefined {
    const first = this.term(index, depth);
    if (!first || !this.is(first.end, '+')) return first;
    // Pieces are collected and joined once: a chain of 50,000 literals must stay linear.
    const parts: string[] = [];
    let length = 0;
    let flags: Flags = { ...first.flags, joined: true };
    let current: Evaluated = first;
    for (;;) {
      const text = asText(current.value);
      if (text === undefined) return undefined;
      if (length < maxValueChars) {
        parts.push(text);
        length += text.length;
      }
      if (!this.is(current.end, '+')) break;
      const next = this.term(current.end + 1, depth);
      if (!next) return undefined;
      flags = merge(flags, next.flags);
      current = next;
    }
    return { value: { kind: 'string', text: parts.join('').slice(0, maxValueChars) }, end: current.end, flags };
  }

  private arguments(index: number, depth: number): { values: { value: Value; flags: Flags }[]; end: number } | undefined {
    if (!this.is(index, '(')) return undefined;
    const values: { value: Value; flags: Flags }[] = [];
    let cursor = index + 1;
    while (!this.is(cursor, ')')) {
      const spread = this.is(cursor, '...');
      const item = this.expression(spread ? cursor + 1 : cursor, depth + 1);
      if (!item) return undefined;
      if (spread && item.value.kind === 'array') values.push(...item.value.items.map((value) => ({ value, flags: item.flags })));
      else values.push({ value: item.value, flags: item.flags });
      cursor = item.end;
      if (this.is(cursor, ',')) cursor += 1;
      else if (!this.is(cursor, ')')) return undefined;
    }
    return { values, end: cursor + 1 };
  }

  private primary(index: number, depth: number): Evaluated | undefined {
    const token = this.at(index);
    if (!token) return undefined;
    if (token.type === 'string' || (token.type === 'template' && token.templatePart === 'full')) return { value: { kind: 'string', text: token.value ?? '' }, end: index + 1, flags: noFlags() };
    if (token.type === 'number') {
      const value = numberOf(token.raw);
      return value === undefined ? undefined : { value: { kind: 'number', value }, end: index + 1, flags: noFlags() };
    }
    if (token.type === 'punct' && token.raw === '-' && this.at(index + 1)?.type === 'number') {
      const value = numberOf(this.at(index + 1)!.raw);
      return value === undefined ? undefined : { value: { kind: 'number', value: -value }, end: index + 2, flags: noFlags() };
    }
    if (token.type === 'template' && token.templatePart === 'head') {
      // `a${'b'}c`: joined only when every substitution is itself constant.
      let text = token.value ?? '';
      let flags: Flags = { ...noFlags(), joined: true };
      let cursor = index + 1;
      for (;;) {
        const inner = this.expression(cursor, depth + 1);
        const piece = inner && asText(inner.value);
        const next = inner && this.at(inner.end);
        if (!inner || piece === undefined || next?.type !== 'template') return undefined;
        if (text.length < maxValueChars) text += piece.slice(0, maxValueChars) + (next.value ?? '');
        flags = merge(flags, inner.flags);
        cursor = inner.end + 1;
        if (next.templatePart === 'tail') return { value: { kind: 'string', text: text.slice(0, maxValueChars) }, end: cursor, flags };
      }
    }
    if (token.raw === '(' && token.type === 'punct') {
      const inner = this.expression(index + 1, depth + 1);
      return inner && this.is(inner.end, ')') ? { ...inner, end: inner.end + 1 } : undefined;
    }
    if (token.raw === '[' && token.type === 'punct') {
      const items: Value[] = [];
      let flags = noFlags();
      let cursor = index + 1;
      while (!this.is(cursor, ']')) {
        if (items.length >= maxArrayItems) return undefined;
        const item = this.expression(cursor, depth + 1);
        if (!item) return undefined;
        items.push(item.value);
        flags = merge(flags, item.flags);
        cursor = item.end;
        if (this.is(cursor, ',')) cursor += 1;
        else if (!this.is(cursor, ']')) return undefined;
      }
      return { value: { kind: 'array', items }, end: cursor + 1, flags };
    }
    if (token.type === 'identifier' && token.raw === 'String' && this.is(index + 1, '.') && this.is(index + 2, 'fromCharCode')) {
      const args = this.arguments(index + 3, depth);
      const text = args && charCodesText(args.values.map((arg) => arg.value));
      return args && text !== undefined ? { value: { kind: 'string', text }, end: args.end, flags: { ...noFlags(), charCodes: true } } : undefined;
    }
    if (token.type === 'identifier' && !this.is(index - 1, '.')) {
      const known = this.constants.get(token.raw);
      return known ? { value: known.value, end: index + 1, flags: known.flags } : undefined;
    }
    return undefined;
  }

  /** term := primary ('.' method '(' args ')')* for the few methods that keep a value constant. */
  private term(index: number, depth: number): Evaluated | undefined {
    let current = this.primary(index, depth);
    while (current && this.is(current.end, '.') && this.at(current.end + 1)?.type === 'identifier') {
      const method = this.at(current.end + 1)!.raw;
      const args = this.arguments(current.end + 2, depth);
      if (!args) return current;
      const value = current.value;
      const first = args.values[0] && asText(args.values[0].value);
      let next: Value | undefined;
      let flags = current.flags;
      if (method === 'join' && value.kind === 'array') {
        const parts = value.items.map(asText);
        if (parts.some((part) => part === undefined)) return undefined;
        next = { kind: 'string', text: joinBounded(parts as string[], args.values.length === 0 ? ',' : first ?? ',') };
        flags = { ...flags, joined: true };
      } else if (method === 'reverse' && value.kind === 'array') {
        next = { kind: 'array', items: [...value.items].reverse() };
        flags = { ...flags, reversed: true };
      } else if (method === 'split' && value.kind === 'string' && first === '') {
        next = { kind: 'array', items: [...value.text.slice(0, maxArrayItems)].map((text) => ({ kind: 'string', text }) as Value) };
      } else if (method === 'concat' && value.kind === 'string') {
        const rest = args.values.map((arg) => asText(arg.value));
        if (rest.some((part) => part === undefined)) return undefined;
        next = { kind: 'string', text: joinBounded([value.text, ...(rest as string[])], '') };
        flags = { ...flags, joined: true };
      } else if (['toLowerCase', 'toUpperCase', 'trim'].includes(method) && value.kind === 'string' && args.values.length === 0) {
        next = { kind: 'string', text: method === 'trim' ? value.text.trim() : method === 'toLowerCase' ? value.text.toLowerCase() : value.text.toUpperCase() };
      } else return current;
      current = { value: next, end: args.end, flags };
    }
    return current;
  }
}

function encodingOf(flags: Flags): Encoding | undefined {
  if (flags.charCodes) return 'char-codes';
  if (flags.reversed) return 'reversed';
  if (flags.joined) return 'joined';
  return undefined;
}

function base64Decoded(text: string): string | undefined {
  const compact = text.trim();
  // Each test is one linear pass: "mixed case" as two class searches, not `[a-z].*[A-Z]`, which
  // backtracks quadratically on a long run of one letter class (a padded pack took minutes).
  if (compact.length < 8 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(compact)) return undefined;
  if (!/[0-9+/=_-]/.test(compact) && !(/[a-z]/.test(compact) && /[A-Z]/.test(compact))) return undefined;
  const decoded = Buffer.from(compact, 'base64').toString('utf8');
  return printable(decoded) ? decoded : undefined;
}

function hexDecoded(text: string): string | undefined {
  const compact = text.trim().replace(/\\x|0x/gi, '').replace(/[\s,:]+/g, '');
  if (compact.length < 12 || compact.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(compact)) return undefined;
  const decoded = Buffer.from(compact, 'hex').toString('utf8');
  return printable(decoded) ? decoded : undefined;
}

/** Every string `code` holds, plain and decoded, with the line where its expression starts. */
export function decodedStrings(code: string, tokens: Token[] = tokenize(code)): DecodedString[] {
  const significant = tokens.filter((token) => token.type !== 'comment');
  const evaluator = new ConstantEvaluator(significant);
  const found: DecodedString[] = [];
  // Each distinct text is emitted once (the first place it shows), and all together stay within
  // maxEmittedChars: repeating a constant adds nothing to find and must not add work.
  const seen = new Set<string>();
  let emittedChars = 0;
  const emit = (text: string, line: number, encoding: Encoding) => {
    if (text.trim() === '' || emittedChars >= maxEmittedChars) return;
    const key = `${encoding}\0${text}`;
    if (seen.has(key)) return;
    seen.add(key);
    emittedChars += text.length;
    found.push({ text, line, encoding });
    if (text.length >= minDecodedChars) {
      const fromBase64 = base64Decoded(text);
      if (fromBase64 !== undefined) found.push({ text: fromBase64, line, encoding: 'base64' });
      const fromHex = hexDecoded(text);
      if (fromHex !== undefined) found.push({ text: fromHex, line, encoding: 'hex' });
      if (encoding === 'plain' || encoding === 'joined') found.push({ text: [...text].reverse().join(''), line, encoding: 'reversed' });
    }
  };

  significant.forEach((token, index) => {
    const previous = significant[index - 1];
    // Declarations first, so later uses of the name evaluate to the value.
    if (token.type === 'identifier' && previous?.type === 'keyword' && ['const', 'let', 'var'].includes(previous.raw) && significant[index + 1]?.raw === '=') {
      const value = evaluator.expression(index + 2);
      if (value && !evaluator.constants.has(token.raw)) evaluator.constants.set(token.raw, { value: value.value, flags: value.flags });
    }
    if (token.type === 'string' || token.type === 'template') {
      // Printable ASCII written as \x or \u escapes is hidden text (esbuild escapes only non-ASCII).
      const escaped = /\\(?:x|u00|u\{)(?:[2-6][0-9a-f]|7[0-9a-e])/i.test(token.raw);
      emit(token.value ?? '', token.line, escaped ? 'hex' : 'plain');
    }
    // Composed values start where a chain starts, not in its middle.
    if (previous && ['+', '.'].includes(previous.raw) && previous.type === 'punct') return;
    if (!(token.type === 'string' || token.type === 'template' || token.raw === '[' || token.raw === '(' || token.raw === 'String' || evaluator.constants.has(token.raw))) return;
    const result = evaluator.expression(index);
    // A constant's name alone is its declaration again, already seen.
    if (!result || (token.type === 'identifier' && result.end === index + 1)) return;
    const encoding = encodingOf(result.flags);
    if (result.value.kind === 'string' && encoding) emit(result.value.text, token.line, encoding);
    if (result.value.kind === 'array') {
      const codes = charCodesText(result.value.items);
      if (codes !== undefined) emit(codes, token.line, 'char-codes');
      const parts = result.value.items.map(asText).filter((part): part is string => part !== undefined && !/^-?\d/.test(part));
      if (parts.length >= 2) {
        emit(joinBounded(parts, ''), token.line, encoding === 'reversed' ? 'reversed' : 'joined');
        emit(joinBounded(parts, ' '), token.line, 'joined');
      }
    }
  });
  return found;
}
