// The live Season 2 worst-case prompt estimate. It needs no tokenizer, so every validator reserves
// the same amount for the same request body, and it is one linear pass, so no body can stall the
// gateway.

// Request fields that shape the answer but are not billed as prompt. Everything else in the body
// (messages, tools, functions, response_format, prediction, unknown fields) counts.
export const generationKnobs = [
  'stream',
  'stream_options',
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'n',
  'seed',
  'user',
  'model',
  'logprobs',
  'top_logprobs',
  'presence_penalty',
  'frequency_penalty',
  'stop',
  'parallel_tool_calls',
  'tool_choice',
  'reasoning_effort',
] as const;

const generationKnobSet: ReadonlySet<string> = new Set(generationKnobs);

// Letters, digits and whitespace tokenize at three or more characters a token; punctuation,
// symbols and non-ASCII are close to one a token, which is what a body built to be under-priced
// would be made of.
export const plainCharactersPerToken = 3;
// The estimate is multiplied by 1.25 = 5/4 for tokenizer differences, then this is added.
export const safetyFactorNumerator = 5;
export const safetyFactorDenominator = 4;
export const fixedOverheadTokens = 16;

/**
 * The billed part of a request body as compact JSON: the body minus the generation knobs, keys in
 * their original order. The characters of this string are what the estimate counts.
 */
export function billedBodyJson(body: Record<string, unknown>): string {
  // A null-prototype object, so a `__proto__` key from JSON.parse stays an ordinary, counted field.
  const billed: Record<string, unknown> = Object.create(null);
  for (const [key, value] of Object.entries(body)) {
    if (!generationKnobSet.has(key)) billed[key] = value;
  }
  return JSON.stringify(billed);
}

export interface CharacterClassCounts {
  /** ASCII letters, digits and whitespace: three to a token. */
  plainCharacters: number;
  /** Every other ASCII character and every non-ASCII character: one token each. */
  otherCharacters: number;
}

// 1 for ASCII letters, digits and whitespace, 0 for every other ASCII character: one table read per
// character instead of a chain of range tests (2–3× faster on long prompts, bench/gateway-overhead.ts).
const plainAscii = new Uint8Array(128);
for (let code = 48; code <= 57; code++) plainAscii[code] = 1; // 0-9
for (let code = 65; code <= 90; code++) plainAscii[code] = 1; // A-Z
for (let code = 97; code <= 122; code++) plainAscii[code] = 1; // a-z
// Space, tab, line feed, carriage return (never raw in JSON output; listed so the class is plain whitespace).
for (const code of [32, 9, 10, 13]) plainAscii[code] = 1;

/** One pass over the string's UTF-16 code units; a surrogate pair is one character, as in the live rule. */
export function countCharacterClasses(text: string): CharacterClassCounts {
  let plainCharacters = 0;
  let otherCharacters = 0;
  const length = text.length;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code < 128) {
      const plain = plainAscii[code]!;
      plainCharacters += plain;
      otherCharacters += 1 - plain;
      continue;
    }
    otherCharacters++;
    // The live meter counts code points (Python strings): an astral character is one, not two.
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
  }
  return { plainCharacters, otherCharacters };
}

/**
 * floor((plain / 3 + other) × 1.25) + 16, computed in integers as floor(5 × (plain + 3 × other) / 12) + 16.
 * The live meter computes it in floating point; the two agree for every body that fits in memory
 * because the exact value is either an integer that floats represent exactly or at least 1/12 away from one.
 */
export function promptEstimateFromCounts(counts: CharacterClassCounts): number {
  const thirds = counts.plainCharacters + plainCharactersPerToken * counts.otherCharacters;
  const numerator = safetyFactorNumerator * thirds;
  const denominator = plainCharactersPerToken * safetyFactorDenominator;
  return Math.floor(numerator / denominator) + fixedOverheadTokens;
}

/** Worst-case prompt tokens of a chat-completions request body (no cache hits assumed). */
export function promptEstimateTokens(body: Record<string, unknown>): number {
  let json: string;
  try {
    json = billedBodyJson(body);
  } catch {
    // Only a body that did not come from JSON (a cycle, a BigInt) gets here; the live meter prices
    // such a body at the fixed overhead, and so do we, to charge as every other validator does.
    return fixedOverheadTokens;
  }
  return promptEstimateFromCounts(countCharacterClasses(json));
}
