// A tiny evaluator of constant expressions over a token stream (JavaScript or Python tokens): what
// a reader of the code sees a string become at run time when that needs no running. Literals,
// `+` chains, arithmetic and bitwise operators on numbers, element access (`parts[2]`, `'abc'[1]`),
// slices reversing a value (`[::-1]`), `.join` both ways round, character codes (`String.fromCharCode`,
// `chr`), `bytes(...)`/`bytes.fromhex(...)` decoded, `atob`/`b64decode`/`b32decode`, `len`. Every
// value and every chain is bounded, and nesting deeper than a few levels is not followed.
import { base32Bytes, rotate } from './text-decoders.ts';
import type { Token } from './js-tokens.ts';
import {
  asText,
  codesToText,
  type Evaluated,
  type Flags,
  joinBounded,
  maxArrayItems,
  maxValueChars,
  merge,
  noFlags,
  num,
  numberOf,
  str,
  type Value,
  binaryOperators,
  levels,
} from './constant-values.ts';

const maxDepth = 20;
const bytesText = (bytes: Buffer) => bytes.toString('utf8');

export class ConstantEvaluator {
  readonly constants = new Map<string, { value: Value; flags: Flags }>();
  private readonly memo = new Map<number, Evaluated | undefined>();
  constructor(private readonly tokens: readonly Token[]) {}

  at(index: number): Token | undefined {
    return this.tokens[index];
  }
  is(index: number, raw: string): boolean {
    const token = this.tokens[index];
    return (
      token !== undefined &&
      (token.type === 'punct' || token.type === 'identifier' || token.type === 'keyword') &&
      token.raw === raw
    );
  }

  /** The value of the expression starting at `index`; results at depth 0 are remembered. */
  expression(index: number, depth = 0): Evaluated | undefined {
    if (depth === 0 && this.memo.has(index)) return this.memo.get(index);
    const result = depth > maxDepth ? undefined : this.binary(index, depth, 0);
    if (depth === 0) this.memo.set(index, result);
    return result;
  }

  /** Forget remembered results: a loop variable bound anew changes what an expression is. */
  forget(): void {
    this.memo.clear();
  }

  private binary(index: number, depth: number, level: number): Evaluated | undefined {
    if (level >= levels.length) return this.unary(index, depth);
    const operators = levels[level]!;
    const first = this.binary(index, depth, level + 1);
    if (!first) return undefined;
    const operatorAt = (at: number) => {
      const token = this.at(at);
      return token?.type === 'punct' && operators.includes(token.raw) ? token.raw : undefined;
    };
    if (!operatorAt(first.end)) return first;
    // Strings are collected and joined once: a chain of 50,000 literals must stay linear.
    const parts: string[] = [];
    let length = 0;
    let numeric: number | undefined = first.value.kind === 'number' ? first.value.value : undefined;
    let flags = first.flags;
    let current: Evaluated = first;
    if (numeric === undefined) {
      const text = asText(first.value);
      if (text === undefined) return undefined;
      parts.push(text);
      length += text.length;
    }
    // An operator that does not apply (`'%s' % name`, `3 * 'a'`) ends the expression before it.
    for (let operator = operatorAt(current.end); operator; operator = operatorAt(current.end)) {
      if (numeric === undefined && operator !== '+') break;
      const next = this.binary(current.end + 1, depth + 1, level + 1);
      if (!next) return undefined;
      if (numeric !== undefined && next.value.kind === 'number') {
        const result =
          operator === '+' ? numeric + next.value.value : binaryOperators[operator]!(numeric, next.value.value);
        if (!Number.isFinite(result)) return undefined;
        numeric = result;
        flags = merge(flags, next.flags);
        current = next;
        continue;
      }
      if (operator !== '+') break;
      const text = asText(next.value);
      if (text === undefined) return undefined;
      flags = merge(flags, next.flags);
      current = next;
      if (numeric !== undefined) {
        parts.push(String(numeric));
        numeric = undefined;
      }
      if (length < maxValueChars) {
        parts.push(text);
        length += text.length;
      }
      flags = { ...flags, joined: true };
    }
    const value = numeric !== undefined ? num(numeric) : str(parts.join(''));
    return value && { value, end: current.end, flags };
  }

  private unary(index: number, depth: number): Evaluated | undefined {
    if ((this.is(index, '-') || this.is(index, '+') || this.is(index, '~')) && this.at(index)?.type === 'punct') {
      const inner = this.unary(index + 1, depth + 1);
      if (!inner || inner.value.kind !== 'number') return undefined;
      const raw = this.at(index)!.raw;
      const value = num(raw === '-' ? -inner.value.value : raw === '~' ? ~inner.value.value : inner.value.value);
      return value && { ...inner, value };
    }
    return this.term(index, depth);
  }

  /** Arguments of a call whose `(` is at `index`. */
  arguments(index: number, depth: number): { values: { value: Value; flags: Flags }[]; end: number } | undefined {
    if (!this.is(index, '(')) return undefined;
    const values: { value: Value; flags: Flags }[] = [];
    let cursor = index + 1;
    while (!this.is(cursor, ')')) {
      const spread = this.is(cursor, '...') || this.is(cursor, '*');
      const item = this.expression(spread ? cursor + 1 : cursor, depth + 1);
      if (!item) return undefined;
      if (spread && item.value.kind === 'array')
        values.push(...item.value.items.map((value) => ({ value, flags: item.flags })));
      else values.push({ value: item.value, flags: item.flags });
      cursor = item.end;
      if (this.is(cursor, ',')) cursor += 1;
      else if (!this.is(cursor, ')')) return undefined;
    }
    return { values, end: cursor + 1 };
  }

  /** A call of a known decoding function at `index` (`String.fromCharCode(…)`, `chr(…)`, `bytes.fromhex(…)`, …). */
  private call(index: number, depth: number): Evaluated | undefined {
    const token = this.at(index)!;
    const path = [token.raw];
    let cursor = index + 1;
    while (path.length < 3 && this.is(cursor, '.') && this.at(cursor + 1)?.type === 'identifier') {
      path.push(this.at(cursor + 1)!.raw);
      cursor += 2;
    }
    const name = path.slice(-2).join('.');
    const last = path[path.length - 1]!;
    const known =
      [
        'String.fromCharCode',
        'String.fromCodePoint',
        'bytes.fromhex',
        'base64.b64decode',
        'base64.b32decode',
        'codecs.decode',
      ].includes(name) ||
      (path.length === 1 && ['chr', 'atob', 'bytes', 'bytearray', 'len', 'b64decode', 'b32decode'].includes(last));
    if (!known) return undefined;
    const args = this.arguments(cursor, depth);
    if (!args) return undefined;
    const values = args.values.map((arg) => arg.value);
    const flags = args.values.reduce((all, arg) => merge(all, arg.flags), noFlags());
    const first = values[0];
    const firstText = first && asText(first);
    let value: Value | undefined;
    let charCodes = false;
    if (name === 'String.fromCharCode' || name === 'String.fromCodePoint' || last === 'chr') {
      const codes = values.length === 1 && first?.kind === 'array' ? first.items : values;
      const text = codesToText(codes);
      value = text === undefined ? undefined : str(text);
      charCodes = true;
    } else if (last === 'bytes' || last === 'bytearray') {
      const text = first?.kind === 'array' ? codesToText(first.items) : firstText;
      value = text === undefined ? undefined : str(text);
      charCodes = first?.kind === 'array';
    } else if (last === 'fromhex' && firstText !== undefined)
      value = str(bytesText(Buffer.from(firstText.replace(/\s+/g, ''), 'hex')));
    else if ((last === 'atob' || last === 'b64decode') && firstText !== undefined)
      value = str(bytesText(Buffer.from(firstText, 'base64')));
    else if (last === 'b32decode' && firstText !== undefined)
      value = str(base32Bytes(firstText)?.toString('utf8') ?? '');
    else if (last === 'decode' && firstText !== undefined && /^rot[_-]?13$/i.test(asText(values[1] ?? str('')) ?? ''))
      value = str(rotate(firstText, 13));
    else if (last === 'len')
      value =
        first?.kind === 'array' ? num(first.items.length) : firstText !== undefined ? num(firstText.length) : undefined;
    return value && { value, end: args.end, flags: { ...flags, charCodes: flags.charCodes || charCodes } };
  }

  private primary(index: number, depth: number): Evaluated | undefined {
    const token = this.at(index);
    if (!token) return undefined;
    if (token.type === 'string' || (token.type === 'template' && token.templatePart === 'full')) {
      // Python joins adjacent literals: 'ab' 'cd', and across lines inside brackets (a long constant
      // written as a parenthesised column of pieces). Two string statements in a row are rare enough
      // that joining them too costs nothing.
      let text = token.value ?? '';
      let end = index + 1;
      let flags = noFlags();
      while (this.at(end)?.type === 'string' && text.length < maxValueChars) {
        text += this.at(end)!.value ?? '';
        end += 1;
        flags = { ...flags, joined: true };
      }
      return { value: str(text), end, flags };
    }
    if (token.type === 'number') {
      const value = numberOf(token.raw);
      return value === undefined ? undefined : { value: { kind: 'number', value }, end: index + 1, flags: noFlags() };
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
        if (next.templatePart === 'tail') return { value: str(text), end: cursor, flags };
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
    if (token.type === 'identifier' && !this.is(index - 1, '.')) {
      const called = this.call(index, depth);
      if (called) return called;
      const known = this.constants.get(token.raw);
      return known ? { value: known.value, end: index + 1, flags: known.flags } : undefined;
    }
    return undefined;
  }

  /** `[index]` or a reversing slice `[::-1]` after a value at `open`. */
  private subscript(current: Evaluated, open: number, depth: number): Evaluated | undefined {
    const value = current.value;
    if (
      this.is(open + 1, ':') &&
      this.is(open + 2, ':') &&
      this.is(open + 3, '-') &&
      this.at(open + 4)?.raw === '1' &&
      this.is(open + 5, ']')
    ) {
      const reversed: Value | undefined =
        value.kind === 'string'
          ? str([...value.text].reverse().join(''))
          : value.kind === 'array'
            ? { kind: 'array', items: [...value.items].reverse() }
            : undefined;
      return reversed && { value: reversed, end: open + 6, flags: { ...current.flags, reversed: true } };
    }
    const position = this.expression(open + 1, depth + 1);
    if (!position || position.value.kind !== 'number' || !this.is(position.end, ']')) return undefined;
    const length = value.kind === 'array' ? value.items.length : value.kind === 'string' ? value.text.length : 0;
    const at = position.value.value < 0 ? length + position.value.value : position.value.value;
    if (!Number.isInteger(at) || at < 0 || at >= length) return undefined;
    const item = value.kind === 'array' ? value.items[at]! : value.kind === 'string' ? str(value.text[at]!) : undefined;
    return (
      item && { value: item, end: position.end + 1, flags: { ...merge(current.flags, position.flags), indexed: true } }
    );
  }

  /** term := primary (('.' method '(' args ')') | '[' index ']')* for what keeps a value constant. */
  private term(index: number, depth: number): Evaluated | undefined {
    let current = this.primary(index, depth);
    while (current) {
      // TypeScript's non-null assertion (`parts[2]!`) changes nothing.
      if (this.is(current.end, '!') && this.at(current.end)?.type === 'punct') {
        current = { ...current, end: current.end + 1 };
        continue;
      }
      if (this.is(current.end, '[') && current.value.kind !== 'number') {
        const next = this.subscript(current, current.end, depth);
        if (!next) return current;
        current = next;
        continue;
      }
      if (!this.is(current.end, '.') || this.at(current.end + 1)?.type !== 'identifier') return current;
      const method = this.at(current.end + 1)!.raw;
      const args = this.arguments(current.end + 2, depth);
      if (!args) return current;
      const next = this.method(current, method, args.values);
      if (!next) return current;
      current = {
        value: next.value,
        end: args.end,
        flags: merge(
          next.flags,
          args.values.reduce((all, arg) => merge(all, arg.flags), noFlags()),
        ),
      };
    }
    return current;
  }

  private method(
    current: Evaluated,
    method: string,
    args: { value: Value; flags: Flags }[],
  ): { value: Value; flags: Flags } | undefined {
    const value = current.value;
    const first = args[0]?.value;
    const firstText = first && asText(first);
    const flags = current.flags;
    const texts = (items: Value[]) => {
      const parts = items.map(asText);
      return parts.some((part) => part === undefined) ? undefined : (parts as string[]);
    };
    if (method === 'join' && value.kind === 'array') {
      const parts = texts(value.items);
      return (
        parts && {
          value: str(joinBounded(parts, args.length === 0 ? ',' : (firstText ?? ','))),
          flags: { ...flags, joined: true },
        }
      );
    }
    if (method === 'join' && value.kind === 'string' && first?.kind === 'array') {
      const parts = texts(first.items);
      return parts && { value: str(joinBounded(parts, value.text)), flags: { ...flags, joined: true } };
    }
    if (method === 'reverse' && value.kind === 'array')
      return { value: { kind: 'array', items: [...value.items].reverse() }, flags: { ...flags, reversed: true } };
    if (method === 'split' && value.kind === 'string' && firstText === '')
      return {
        value: { kind: 'array', items: [...value.text.slice(0, maxArrayItems)].map((text) => str(text)) },
        flags,
      };
    if (method === 'concat' && value.kind === 'string') {
      const rest = texts(args.map((arg) => arg.value));
      return rest && { value: str(joinBounded([value.text, ...rest], '')), flags: { ...flags, joined: true } };
    }
    if (
      ['toLowerCase', 'toUpperCase', 'trim', 'lower', 'upper', 'strip'].includes(method) &&
      value.kind === 'string' &&
      args.length === 0
    ) {
      const text = ['trim', 'strip'].includes(method)
        ? value.text.trim()
        : ['toLowerCase', 'lower'].includes(method)
          ? value.text.toLowerCase()
          : value.text.toUpperCase();
      return { value: str(text), flags };
    }
    if (['charAt', 'at'].includes(method) && value.kind === 'string' && first?.kind === 'number') {
      const char = value.text.at(first.value);
      return char === undefined ? undefined : { value: str(char), flags: { ...flags, indexed: true } };
    }
    if (['slice', 'substring'].includes(method) && value.kind === 'string' && first?.kind === 'number') {
      const end = args[1]?.value;
      return {
        value: str(value.text.slice(first.value, end?.kind === 'number' ? end.value : undefined)),
        flags: { ...flags, indexed: true },
      };
    }
    if (method === 'decode' && value.kind === 'string') return { value, flags };
    return undefined;
  }
}
