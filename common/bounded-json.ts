// JSON from a pack, a policy or an agent, parsed with a bound on nesting. JSON.parse itself copes
// with deep input, but everything after it that walks the value (zod, JSON.stringify, the meter's
// estimate, canonical JSON) recurses and throws RangeError past a few thousand levels — in a request
// handler that can end the process. One linear pass over the text checks the depth first.

export const defaultMaxJsonDepth = 128;

export class JsonTooDeepError extends Error {
  constructor(readonly maxDepth: number) {
    super(`JSON nested deeper than ${maxDepth} levels`);
    this.name = 'JsonTooDeepError';
  }
}

/**
 * The deepest nesting of objects and arrays in JSON text (brackets inside strings do not count).
 * It walks UTF-8 bytes, not UTF-16 code units: every structural character is ASCII and every byte of
 * a multi-byte character is ≥ 0x80, so the two walks agree on any text, valid or not. Inside a
 * string it jumps from quote to quote with the engine's native search, where a chat request spends
 * most of its length; a quote ends the string unless an odd run of backslashes stands before it.
 * Linear: each run of backslashes is counted once, for the quote it ends at.
 */
export function jsonDepth(text: string | Buffer): number {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  let depth = 0;
  let deepest = 0;
  const length = bytes.length;
  for (let i = 0; i < length; i++) {
    const code = bytes[i]!;
    if (code === 0x22) {
      const contentStart = i + 1;
      for (;;) {
        const quote = bytes.indexOf(0x22, i + 1);
        if (quote < 0) return deepest; // an unterminated string: nothing after it is structure
        let backslashes = 0;
        while (quote - backslashes - 1 >= contentStart && bytes[quote - backslashes - 1] === 0x5c) backslashes++;
        i = quote;
        if (backslashes % 2 === 0) break;
      }
    } else if (code === 0x7b || code === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
  return deepest;
}

/**
 * JSON.parse, refusing text nested deeper than maxDepth (JsonTooDeepError) before parsing it. Bytes
 * are read as UTF-8, as a request body is; passing them spares encoding the text again for the depth walk.
 */
export function parseJsonBounded(text: string | Buffer, maxDepth = defaultMaxJsonDepth): unknown {
  if (jsonDepth(text) > maxDepth) throw new JsonTooDeepError(maxDepth);
  return JSON.parse(typeof text === 'string' ? text : text.toString('utf8'));
}
