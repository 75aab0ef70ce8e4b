// The strings a source file holds, as a reader of the code would see them at run time where that can
// be seen statically: literals (escapes resolved), concatenations (also in loops) and joins, templates
// of literal pieces, element access and arithmetic (constant-evaluator.ts), character codes,
// reversals, fragments put together by an index array, and base64, hex, base32, rot-n or single-key
// XOR payloads decoded (text-decoders.ts). JavaScript, TypeScript, JSON and Python sources alike. A
// policy hiding scenario text behind such tricks is caught by what it decodes to.
import { ConstantEvaluator } from './constant-evaluator.ts';
import { asText, codesToText, type Flags, joinBounded, maxArrayItems, type Value } from './constant-values.ts';
import { tokenize, type Token } from './js-tokens.ts';
import { tokenizePython } from './python-tokens.ts';
import {
  base32Decoded,
  base64Decoded,
  base85Decoded,
  hexDecoded,
  keyedText,
  minDecodedChars,
  printable,
  resetKeySearchBudget,
  rotDecoded,
} from './text-decoders.ts';
import { customAlphabetDecodings } from './custom-alphabet.ts';

export type Encoding =
  | 'plain'
  | 'base64'
  | 'hex'
  | 'base32'
  | 'base85'
  | 'joined'
  | 'indexed'
  | 'char-codes'
  | 'xor'
  | 'reversed'
  | 'rot-n'
  | 'custom-alphabet'
  | 'unicode';
export type DecodedString = { text: string; line: number; encoding: Encoding };
export type SourceLanguage = 'javascript' | 'python';

/** All the text one file may emit: a 32 KB source repeating a 200 k constant must not become gigabytes. */
const maxEmittedChars = 8_000_000;
/** Texts longer than this are not tried as rot-n (the rest of the file still is). */
const maxRotChars = 20_000;
const maxRotTotalChars = 400_000;
/** Arrays paired as (fragments, order) to rebuild a string put together by indices. */
const maxPairedArrays = 64;
const maxLoopIterations = 4_096;
/** Tokens all loops of one file may evaluate, and index-array items all pairings may read. */
const maxLoopTokens = 400_000;
const maxPairingItems = 2_000_000;

function encodingOf(flags: Flags): Encoding | undefined {
  if (flags.charCodes) return 'char-codes';
  if (flags.reversed) return 'reversed';
  if (flags.indexed) return 'indexed';
  if (flags.joined) return 'joined';
  return undefined;
}

function charCodesText(items: Value[]): string | undefined {
  if (items.length < 4 || !items.every((item) => item.kind === 'number' && item.value >= 9)) return undefined;
  const text = codesToText(items);
  return text !== undefined && printable(text) ? text : undefined;
}

const numberItems = (items: Value[]) => items.every((item) => item.kind === 'number' && Number.isInteger(item.value));

/**
 * A loop that appends to a constant at `index` (the `for` keyword), run with its variable bound to each
 * item in turn: `for (const p of parts) s += p`, `for (let i = 0; i < n; i++) s += parts[order[i]]`,
 * `for p in parts: s += p`, `for i in range(len(order)): s += parts[order[i]]`.
 */
function runLoop(
  evaluator: ConstantEvaluator,
  tokens: readonly Token[],
  index: number,
  budget: { tokens: number },
): { name: string; text: string; flags: Flags } | undefined {
  const is = (at: number, raw: string) => tokens[at]?.raw === raw;
  let variable: string | undefined;
  let items: Value[] | undefined;
  let body: number;
  if (is(index + 1, '(')) {
    let cursor = index + 2;
    if (['const', 'let', 'var'].includes(tokens[cursor]?.raw ?? '')) cursor += 1;
    variable = tokens[cursor]?.raw;
    if (is(cursor + 1, 'of')) {
      const source = evaluator.expression(cursor + 2, 1);
      if (!source || source.value.kind !== 'array' || !is(source.end, ')')) return undefined;
      items = source.value.items;
      body = source.end + 1;
    } else if (
      is(cursor + 1, '=') &&
      tokens[cursor + 2]?.type === 'number' &&
      is(cursor + 3, ';') &&
      tokens[cursor + 4]?.raw === variable &&
      is(cursor + 5, '<')
    ) {
      const start = Number(tokens[cursor + 2]!.raw);
      const limit = evaluator.expression(cursor + 6, 1);
      if (!limit || limit.value.kind !== 'number' || !is(limit.end, ';')) return undefined;
      let close = limit.end + 1;
      while (close < limit.end + 6 && !is(close, ')')) close += 1;
      if (!is(close, ')')) return undefined;
      items = [];
      for (let i = start; i < Math.min(limit.value.value, start + maxLoopIterations); i++)
        items.push({ kind: 'number', value: i });
      body = close + 1;
    } else return undefined;
    if (is(body, '{')) body += 1;
  } else {
    variable = tokens[index + 1]?.raw;
    if (!is(index + 2, 'in')) return undefined;
    const source = evaluator.expression(index + 3, 1);
    if (!source) {
      // range(n) / range(len(x))
      if (!is(index + 3, 'range') || !is(index + 4, '(')) return undefined;
      const limit = evaluator.expression(index + 5, 1);
      if (!limit || limit.value.kind !== 'number' || !is(limit.end, ')') || !is(limit.end + 1, ':')) return undefined;
      items = Array.from(
        { length: Math.max(0, Math.min(limit.value.value, maxLoopIterations)) },
        (_, i) => ({ kind: 'number', value: i }) as Value,
      );
      body = limit.end + 2;
    } else {
      if (source.value.kind !== 'array' && source.value.kind !== 'string') return undefined;
      if (!is(source.end, ':')) return undefined;
      items =
        source.value.kind === 'array'
          ? source.value.items
          : [...source.value.text.slice(0, maxArrayItems)].map((text) => ({ kind: 'string', text }) as Value);
      body = source.end + 1;
    }
  }
  const target = tokens[body];
  if (
    !variable ||
    !target ||
    target.type !== 'identifier' ||
    !is(body + 1, '+=') ||
    !evaluator.constants.has(target.raw)
  )
    return undefined;
  const initial = evaluator.constants.get(target.raw)!;
  const start = asText(initial.value);
  if (start === undefined || initial.value.kind !== 'string') return undefined;
  const saved = evaluator.constants.get(variable);
  const parts = [start];
  let length = start.length;
  let flags: Flags = { ...initial.flags, joined: true };
  try {
    for (const item of items.slice(0, maxLoopIterations)) {
      if (budget.tokens <= 0) return undefined;
      evaluator.constants.set(variable, {
        value: item,
        flags: { joined: false, charCodes: false, reversed: false, indexed: false },
      });
      evaluator.forget();
      const piece = evaluator.expression(body + 2, 1);
      const text = piece && asText(piece.value);
      if (text === undefined) return undefined;
      budget.tokens -= piece!.end - body;
      flags = {
        ...flags,
        indexed: flags.indexed || piece!.flags.indexed,
        charCodes: flags.charCodes || piece!.flags.charCodes,
      };
      parts.push(text);
      length += text.length;
      if (length > 200_000) break;
    }
  } finally {
    if (saved) evaluator.constants.set(variable, saved);
    else evaluator.constants.delete(variable);
    evaluator.forget();
  }
  return { name: target.raw, text: joinBounded(parts, ''), flags };
}

/** Every string `code` holds, plain and decoded, with the line where its expression starts. */
export function decodedStrings(
  code: string,
  tokens?: Token[],
  language: SourceLanguage = 'javascript',
): DecodedString[] {
  const all = tokens ?? (language === 'python' ? tokenizePython(code) : tokenize(code));
  const significant = all.filter((token) => token.type !== 'comment');
  const evaluator = new ConstantEvaluator(significant);
  const found: DecodedString[] = [];
  resetKeySearchBudget();
  // Each distinct text is emitted once (the first place it shows), and all together stay within
  // maxEmittedChars: repeating a constant adds nothing to find and must not add work.
  const seen = new Set<string>();
  let emittedChars = 0;
  let rotChars = 0;
  const push = (text: string, line: number, encoding: Encoding) => {
    emittedChars += text.length;
    found.push({ text, line, encoding });
  };
  const emit = (text: string, line: number, encoding: Encoding) => {
    if (text.trim() === '' || emittedChars >= maxEmittedChars) return;
    const key = `${encoding}\0${text}`;
    if (seen.has(key)) return;
    seen.add(key);
    push(text, line, encoding);
    if (text.length < minDecodedChars) return;
    const fromBase64 = base64Decoded(text);
    if (fromBase64 !== undefined) push(fromBase64, line, 'base64');
    const fromHex = hexDecoded(text);
    if (fromHex !== undefined) push(fromHex, line, 'hex');
    const fromBase32 = base32Decoded(text);
    if (fromBase32 !== undefined) push(fromBase32, line, 'base32');
    const fromBase85 = base85Decoded(text);
    if (fromBase85 !== undefined) push(fromBase85, line, 'base85');
    if (encoding === 'plain' || encoding === 'joined' || encoding === 'indexed')
      push([...text].reverse().join(''), line, 'reversed');
    if (text.length <= maxRotChars && rotChars < maxRotTotalChars) {
      rotChars += text.length;
      const rotated = rotDecoded(text);
      if (rotated !== undefined) push(rotated, line, 'rot-n');
    }
  };
  const loopBudget = { tokens: maxLoopTokens };
  const stringArrays: { items: string[]; line: number }[] = [];
  const orderArrays: number[][] = [];
  const noteArray = (items: Value[], line: number) => {
    if (items.length >= 2 && items.every((item) => item.kind === 'string') && stringArrays.length < maxPairedArrays)
      stringArrays.push({ items: items.map((item) => asText(item)!), line });
    if (items.length >= 3 && numberItems(items) && orderArrays.length < maxPairedArrays)
      orderArrays.push(items.map((item) => (item as { value: number }).value));
  };

  significant.forEach((token, index) => {
    const previous = significant[index - 1];
    const next = significant[index + 1];
    // Declarations first, so later uses of the name evaluate to the value: `const x =` in JavaScript,
    // `x =` at the start of a line in Python.
    const declares =
      token.type === 'identifier' &&
      next?.raw === '=' &&
      next.type === 'punct' &&
      (language === 'python'
        ? !previous || previous.line < token.line
        : previous?.type === 'keyword' && ['const', 'let', 'var'].includes(previous.raw));
    if (declares) {
      const value = evaluator.expression(index + 2);
      if (value && !evaluator.constants.has(token.raw))
        evaluator.constants.set(token.raw, { value: value.value, flags: value.flags });
    }
    if (token.type === 'keyword' && token.raw === 'for') {
      const loop = loopBudget.tokens > 0 ? runLoop(evaluator, significant, index, loopBudget) : undefined;
      if (loop) {
        evaluator.constants.set(loop.name, { value: { kind: 'string', text: loop.text }, flags: loop.flags });
        emit(loop.text, token.line, encodingOf(loop.flags) ?? 'joined');
      }
    }
    if (token.type === 'string' || token.type === 'template') {
      // Printable ASCII written as \x or \u escapes is hidden text (esbuild escapes only non-ASCII).
      const escaped = /\\(?:x|u00|u\{)(?:[2-6][0-9a-f]|7[0-9a-e])/i.test(token.raw);
      emit(token.value ?? '', token.line, escaped ? 'hex' : 'plain');
    }
    // Composed values start where a chain starts, not in its middle.
    if (previous && ['+', '.', '-', '*', '^', '|', '&', '%', '/'].includes(previous.raw) && previous.type === 'punct')
      return;
    if (
      !(
        token.type === 'string' ||
        token.type === 'template' ||
        token.raw === '[' ||
        token.raw === '(' ||
        token.type === 'identifier'
      )
    )
      return;
    const result = evaluator.expression(index);
    // A constant's name alone is its declaration again, already seen.
    if (!result || (token.type === 'identifier' && result.end === index + 1)) return;
    const encoding = encodingOf(result.flags);
    if (result.value.kind === 'string' && encoding) emit(result.value.text, token.line, encoding);
    if (result.value.kind === 'array') {
      const items = result.value.items;
      if (token.raw === '[') noteArray(items, token.line);
      const codes = charCodesText(items);
      if (codes !== undefined) emit(codes, token.line, 'char-codes');
      // Printable is not text: codes shifted by a constant are printable nonsense.
      if (items.length >= minDecodedChars && numberItems(items)) {
        const keyed = keyedText(items.map((item) => (item as { value: number }).value));
        if (keyed !== undefined) emit(keyed, token.line, 'xor');
      }
      const parts = items.map(asText).filter((part): part is string => part !== undefined && !/^-?\d/.test(part));
      if (parts.length >= 2) {
        emit(joinBounded(parts, ''), token.line, encoding === 'reversed' ? 'reversed' : 'joined');
        emit(joinBounded(parts, ' '), token.line, 'joined');
      }
    }
  });

  // Payloads in a digit table the file carries (custom-alphabet.ts): tables and blobs are both strings seen above.
  const readable = found.filter((item) => item.encoding === 'plain' || item.encoding === 'joined');
  for (const decoded of customAlphabetDecodings(readable.map((item) => item.text)))
    emit(decoded.text, readable[decoded.blob]!.line, 'custom-alphabet');

  // Fragments put together by an array of indices, whatever the code that does it (a map, a
  // comprehension, a loop): every (fragments, order) pair whose indices all fit.
  let pairingItems = 0;
  for (const fragments of stringArrays) {
    for (const order of orderArrays) {
      pairingItems += order.length;
      if (pairingItems > maxPairingItems || emittedChars >= maxEmittedChars) return found;
      if (!order.every((at) => at >= 0 && at < fragments.items.length)) continue;
      const text = joinBounded(
        order.map((at) => fragments.items[at]!),
        '',
      );
      emit(text, fragments.line, 'indexed');
    }
  }
  return found;
}
