// Plain words for what is wrong with a JSON text before a parser's message is shown: a byte-order
// mark is named as one (JSON.parse quotes it as an invisible character), and a number too large for
// a double is named as out of range (JSON.parse turns 1e400 into Infinity, which JSON.stringify
// then shows as null).

const byteOrderMark = '\ufeff';

/** A sentence naming a byte-order mark at the start of `text`, or undefined. */
export function byteOrderMarkProblem(text: string, what: string): string | undefined {
  if (!text.startsWith(byteOrderMark)) return undefined;
  return `${what} starts with a byte-order mark (BOM, U+FEFF, bytes EF BB BF); save it as UTF-8 without a BOM`;
}

/** A value as a short quote for an error message: out-of-range numbers named as such, never shown as null. */
export function showValue(value: unknown, maxChars = 60): string {
  if (typeof value === 'number' && !Number.isFinite(value))
    return Number.isNaN(value)
      ? 'NaN (not a number)'
      : `a number out of range (${value > 0 ? '' : '-'}1e400 and the like are too large for a double and read as ${value > 0 ? '' : '-'}Infinity)`;
  const text = JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'number' && !Number.isFinite(item) ? `<${item} out of range>` : item,
  );
  const shown = text ?? String(value);
  return shown.length <= maxChars ? shown : `${shown.slice(0, maxChars - 3)}...`;
}
