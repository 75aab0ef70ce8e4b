// The values the constant evaluator (constant-evaluator.ts) computes: strings, numbers and arrays of them,
// each bounded, with flags saying which tricks produced them (joins, character codes, reversals,
// indexing), so the static scan can say how a hidden string was built.
export const maxValueChars = 200_000;
export const maxArrayItems = 20_000;

export type Flags = { joined: boolean; charCodes: boolean; reversed: boolean; indexed: boolean };
export type Value =
  | { kind: 'string'; text: string }
  | { kind: 'number'; value: number }
  | { kind: 'array'; items: Value[] };
export type Evaluated = { value: Value; end: number; flags: Flags };

export const noFlags = (): Flags => ({ joined: false, charCodes: false, reversed: false, indexed: false });
export const merge = (a: Flags, b: Flags): Flags => ({
  joined: a.joined || b.joined,
  charCodes: a.charCodes || b.charCodes,
  reversed: a.reversed || b.reversed,
  indexed: a.indexed || b.indexed,
});

/** parts.join(separator) cut at maxValueChars without ever building the whole string. */
export function joinBounded(parts: readonly string[], separator: string): string {
  const kept: string[] = [];
  let length = 0;
  for (const part of parts) {
    if (length >= maxValueChars) break;
    kept.push(part);
    length += part.length + separator.length;
  }
  return kept.join(separator).slice(0, maxValueChars);
}

export const asText = (value: Value): string | undefined =>
  value.kind === 'string' ? value.text : value.kind === 'number' ? String(value.value) : undefined;
export const str = (text: string): Value => ({ kind: 'string', text: text.slice(0, maxValueChars) });
export const num = (value: number): Value | undefined =>
  Number.isFinite(value) ? { kind: 'number', value } : undefined;

export function numberOf(raw: string): number | undefined {
  const cleaned = raw.replace(/_/g, '').replace(/[njJ]$/, '');
  const value = /^0[bBoOxX]/.test(cleaned) ? Number(cleaned) : Number.parseFloat(cleaned);
  return Number.isFinite(value) ? value : undefined;
}

/** Character codes as text, or undefined when any item is not a code point. */
export function codesToText(items: readonly Value[]): string | undefined {
  if (items.length > maxArrayItems) return undefined;
  const codes: number[] = [];
  for (const item of items) {
    if (item.kind !== 'number' || !Number.isInteger(item.value) || item.value < 0 || item.value > 0x10ffff)
      return undefined;
    codes.push(item.value);
  }
  let text = '';
  for (let i = 0; i < codes.length; i += 4096) text += String.fromCodePoint(...codes.slice(i, i + 4096));
  return text;
}

// The operators on numbers, by precedence.
export const binaryOperators: Record<string, (a: number, b: number) => number> = {
  '*': (a, b) => a * b,
  '/': (a, b) => a / b,
  '//': (a, b) => Math.floor(a / b),
  '%': (a, b) => a % b,
  '**': (a, b) => a ** b,
  '-': (a, b) => a - b,
  '^': (a, b) => a ^ b,
  '&': (a, b) => a & b,
  '|': (a, b) => a | b,
  '<<': (a, b) => a << b,
  '>>': (a, b) => a >> b,
};
// Loosest first; `+` (strings or numbers) is handled with `-` on the additive level.
export const levels: readonly (readonly string[])[] = [
  ['|'],
  ['^'],
  ['&'],
  ['<<', '>>'],
  ['+', '-'],
  ['*', '/', '//', '%'],
  ['**'],
];
