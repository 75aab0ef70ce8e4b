// What a request body asks the meter to reserve for its answer: the completion length per answer
// and the number of answers. Read the same way on every validator.

// Reserved (and clamped) when a request names no length; a policy that needs more must ask.
export const defaultMaxTokens = 8192;

function isTruthy(value: unknown): boolean {
  // The live rule is Python's `a or b or default`; empty arrays and objects are falsy there too.
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}

function wholeTokenCount(value: unknown): number | undefined {
  if (typeof value === 'number') {
    if (Number.isNaN(value) || value < 1) return undefined;
    // 1e400 parses as Infinity: ask for everything, the meter clamps it to what fits.
    return value === Infinity ? Infinity : Math.floor(value);
  }
  if (typeof value === 'string' && /^\s*\d{1,20}\s*$/.test(value)) {
    const parsed = Number(value.trim());
    return parsed >= 1 ? parsed : undefined;
  }
  return undefined;
}

/**
 * The completion length a request asks for: `max_tokens` if set, else `max_completion_tokens`, else
 * 8192; the first one set that is not a whole number ≥ 1 also counts as 8192. The gateway sends the
 * meter's (possibly clamped) value upstream as `max_tokens` and drops `max_completion_tokens`.
 */
export function requestedMaxTokens(body: Record<string, unknown>): number {
  const chosen = isTruthy(body.max_tokens)
    ? body.max_tokens
    : isTruthy(body.max_completion_tokens)
      ? body.max_completion_tokens
      : undefined;
  if (chosen === undefined) return defaultMaxTokens;
  return wholeTokenCount(chosen) ?? defaultMaxTokens;
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
