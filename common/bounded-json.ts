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

/** The deepest nesting of objects and arrays in JSON text (brackets inside strings do not count). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
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

/** JSON.parse, refusing text nested deeper than maxDepth (JsonTooDeepError) before parsing it. */
export function parseJsonBounded(text: string, maxDepth = defaultMaxJsonDepth): unknown {
  if (jsonDepth(text) > maxDepth) throw new JsonTooDeepError(maxDepth);
  return JSON.parse(text);
}
