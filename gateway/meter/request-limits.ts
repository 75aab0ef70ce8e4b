// What a request body asks the meter to reserve for its answer: the completion length per answer
// and the number of answers. Read the same way on every validator.

// Reserved (and clamped) when a request names no length; a policy that needs more must ask.
export const defaultMaxTokens = 8192;

export type MaxTokensResult = { ok: true; maxTokens: number } | { ok: false; field: string; message: string };

function describe(value: unknown): string {
  if (typeof value === 'number' && !Number.isFinite(value))
    return `${value} (a number out of range: 1e400 and the like read as Infinity)`;
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/**
 * The completion length a request asks for: `max_tokens` if present, else `max_completion_tokens`,
 * else 8192. A length that is present must be a positive whole number of tokens (a JSON number, at
 * most 2^53 − 1): 0, negatives, fractions, strings and out-of-range numbers are refused with the
 * field named, never guessed at (the live rule read 0 and −1 as absent and reserved 8192; a string
 * went upstream as sent). `null` is absent. The gateway sends the meter's (possibly clamped) value
 * upstream as `max_tokens` and drops `max_completion_tokens`.
 */
export function requestedMaxTokens(body: Record<string, unknown>): MaxTokensResult {
  for (const field of ['max_tokens', 'max_completion_tokens'] as const) {
    const value = body[field];
    if (value === undefined || value === null) continue;
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) return { ok: true, maxTokens: value };
    return {
      ok: false,
      field,
      message:
        `${field} must be a positive whole number of tokens (a JSON number such as 4096), got ${describe(value)}; ` +
        `omit it to ask for ${defaultMaxTokens}, or send a number ≥ 1 — a length above what the budget pays for is cut to fit`,
    };
  }
  return { ok: true, maxTokens: defaultMaxTokens };
}

export type AnswerCountResult = { ok: true; answerCount: number } | { ok: false; message: string };

/**
 * How many answers (`n`) a request asks for; each is priced at the full completion length. A value
 * that is not a whole number ≥ 1 is refused rather than guessed at, since the upstream reads it too.
 */
export function requestedAnswerCount(body: Record<string, unknown>): AnswerCountResult {
  const value = body.n;
  if (value === undefined || value === null) return { ok: true, answerCount: 1 };
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) return { ok: true, answerCount: value };
  return { ok: false, message: `n must be a whole number ≥ 1 (the number of answers), got ${JSON.stringify(value)}` };
}
