// The live Season 2 character-class prompt estimate. It needs no tokenizer and is one linear pass.
// It is NOT an upper bound of what an upstream bills (astral-plane characters were billed 3.12× it,
// runs of one letter 1.42×: issue 36), so reservations are made from prompt-bound.ts; this estimate
// is logged beside each call, as the live rule's figure.

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

// The live rule's assumption: letters, digits and whitespace tokenize at three characters a token,
// every other character at one. Both fail for adversarial content (a run of one letter, an astral
// character of four bytes), which is why the reservation uses prompt-bound.ts.
export const plainCharactersPerToken = 3;
// The estimate is multiplied by 1.25 = 5/4 for tokenizer differences, then this is added.
export const safetyFactorNumerator = 5;
export const safetyFactorDenominator = 4;
export const fixedOverheadTokens = 16;

/** A request body split for the meter: what is billed, as compact JSON, and the generation knobs. */
export interface SplitBody {
  /** The body minus the generation knobs, keys in their original order: the text the estimate counts. */
  billedJson: string;
  /** The generation knobs the body has, as they were (small: the gateway serializes them apart). */
  knobs: Record<string, unknown>;
}

/**
 * One serialization of the body's billed part serves the estimate, the call log's start row and the
 * upstream request (each joins the knobs to it, joinJsonObjects): on a 50 k-character prompt each
 * JSON.stringify of the whole body was a tenth of a millisecond (bench/gateway-overhead.ts).
 */
export function splitBilledBody(body: Record<string, unknown>): SplitBody {
  // A null-prototype object, so a `__proto__` key from JSON.parse stays an ordinary, counted field.
  const billed: Record<string, unknown> = Object.create(null);
  const knobs: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (generationKnobSet.has(key)) knobs[key] = value;
    else billed[key] = value;
  }
  return { billedJson: JSON.stringify(billed), knobs };
}

/**
 * The billed part of a request body as compact JSON: the body minus the generation knobs, keys in
 * their original order. The characters of this string are what the estimate counts.
 */
export function billedBodyJson(body: Record<string, unknown>): string {
  return splitBilledBody(body).billedJson;
}

export interface CharacterClassCounts {
  /** ASCII letters, digits and whitespace: three to a token. */
  plainCharacters: number;
  /** Every other ASCII character and every non-ASCII character: one token each. */
  otherCharacters: number;
}

// The count walks the text's UTF-8 bytes, encoded natively: on 50 k characters 135 µs against 187 µs
// for the walk over UTF-16 code units it replaced (a paired microbenchmark; the gateway's whole
// own work per call: bench/gateway-overhead.ts). Two tables, one read each per byte:
// 1 for ASCII letters, digits and whitespace;
const plainByte = new Uint8Array(256);
for (let code = 48; code <= 57; code++) plainByte[code] = 1; // 0-9
for (let code = 65; code <= 90; code++) plainByte[code] = 1; // A-Z
for (let code = 97; code <= 122; code++) plainByte[code] = 1; // a-z
// Space, tab, line feed, carriage return (never raw in JSON output; listed so the class is plain whitespace).
for (const code of [32, 9, 10, 13]) plainByte[code] = 1;
// and 1 for a byte that starts a character (every byte but a continuation byte, 10xxxxxx).
const startsCharacter = new Uint8Array(256).fill(1).fill(0, 0x80, 0xc0);

/**
 * Counts code points, as the live meter does (Python strings): Node's encoder writes a surrogate
 * pair as one four-byte character and a lone surrogate as U+FFFD, one character, so an astral
 * character is one, not two, and a lone surrogate is one.
 */
export function countCharacterClasses(text: string): CharacterClassCounts {
  const bytes = Buffer.from(text, 'utf8');
  let plainCharacters = 0;
  let characters = 0;
  const length = bytes.length;
  for (let index = 0; index < length; index++) {
    const byte = bytes[index]!;
    plainCharacters += plainByte[byte]!;
    characters += startsCharacter[byte]!;
  }
  return { plainCharacters, otherCharacters: characters - plainCharacters };
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

/** The live rule's estimated prompt tokens of a body whose billed part is `billedJson` (splitBilledBody). */
export function promptEstimateOfBilledJson(billedJson: string): number {
  return promptEstimateFromCounts(countCharacterClasses(billedJson));
}

/** The live rule's estimated prompt tokens of a chat-completions request body (no cache hits assumed). */
export function promptEstimateTokens(body: Record<string, unknown>): number {
  let json: string;
  try {
    json = billedBodyJson(body);
  } catch {
    // Only a body that did not come from JSON (a cycle, a BigInt) gets here; the live meter prices
    // such a body at the fixed overhead, and so do we, to charge as every other validator does.
    return fixedOverheadTokens;
  }
  return promptEstimateOfBilledJson(json);
}
