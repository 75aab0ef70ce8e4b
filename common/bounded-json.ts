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
 * It walks UTF-8 bytes, not UTF-16 code units: reading a typed array is 2–3× faster in V8 than
 * charCodeAt (bench/gateway-overhead.ts), and every structural character is ASCII while every byte
 * of a multi-byte character is ≥ 0x80, so the two walks agree on any text, valid or not.
 */
export function jsonDepth(text: string | Uint8Array): number {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  let depth = 0;
  let deepest = 0;
  let inString = false;
  const length = bytes.length;
  for (let i = 0; i < length; i++) {
    const code = bytes[i]!;
    if (inString) {
      if (code === 0x5c) i++; // backslash: skip the escaped character
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
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
