// The LLM judge of pre-evaluation: one structured-output call that reads a pack's sources and flags
// hard-coding and benchmark gaming. Cached by pack hash; retried on transport errors, 429/5xx and
// unusable answers; and when no usable answer comes, it fails closed (JudgeUnavailableError), so the
// caller rejects the pack rather than letting it through unjudged.
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import { z } from 'zod';
import type { ChatUpstream } from '../gateway/upstream/chat-upstream.ts';
import { packHash as computePackHash, type CanonicalPack } from '../packs/canonical-pack.ts';
import {
  buildJudgeMessages,
  judgeAnswerSchema,
  judgeResponseFormat,
  type JudgeAnswer,
  type JudgeFlagType,
  type ScenarioInstruction,
} from './judge-protocol.ts';
import type { CachedVerdict, JudgeCache } from './judge-cache.ts';
import { decideVerdict } from './judge-decision.ts';

export type { JudgeFlagType } from './judge-protocol.ts';
export type { JudgeFlag } from './judge-decision.ts';
export { judgePromptVersion } from './judge-protocol.ts';

export interface JudgeVerdict {
  verdict: 'pass' | 'reject';
  flags: { type: JudgeFlagType; evidence: string; file?: string }[];
  summary: string;
  model: string;
  promptVersion: string;
  cached: boolean;
  /** What the call cost in tokens ({ attempts, promptTokens, completionTokens }); absent when cached. */
  costHint?: unknown;
}

export interface JudgePackRequest {
  client: ChatUpstream;
  model: string;
  pack: CanonicalPack;
  /** Must be packHash(pack): the cache key and the delimiter boundary come from it. */
  packHash: string;
  cache: JudgeCache;
  /** The benchmark's scenarios, shown beside the pack (their digest is part of the cache key); none by default. */
  scenarios?: readonly ScenarioInstruction[];
  /** Calls at most (default 3). */
  maxAttempts?: number;
  /** Per call (default 120 s). */
  timeoutMs?: number;
  /** Wait before the 2nd attempt, doubled for each later one (default 1 s). */
  retryDelayMs?: number;
  /** The judge's completion cap (default 4096 tokens). */
  maxOutputTokens?: number;
  /** Packs with more characters of text are not sent at all (default 300,000, about 100k tokens). */
  maxPackChars?: number;
}

export type JudgeUnavailableReason = 'unreachable' | 'invalid_answer' | 'refused' | 'pack_too_large';

export class JudgeUnavailableError extends Error {
  readonly code = 'judge_unavailable';

  constructor(
    readonly reason: JudgeUnavailableReason,
    readonly attempts: number,
    /** What went wrong on each attempt, in order. */
    readonly causes: string[],
    model: string,
    /** Tokens the failed attempts still used (for the spend ledger). */
    readonly usage: { promptTokens: number; completionTokens: number } = { promptTokens: 0, completionTokens: 0 },
  ) {
    const last = causes[causes.length - 1] ?? reason;
    super(
      `the LLM judge (${model}) gave no usable verdict after ${attempts} attempt${attempts === 1 ? '' : 's'} (${reason}: ${last}); the pack cannot be judged, so it is rejected`,
    );
    this.name = 'JudgeUnavailableError';
  }
}

export const judgeDefaults = {
  maxAttempts: 3,
  timeoutMs: 120_000,
  retryDelayMs: 1_000,
  maxOutputTokens: 4_096,
  maxPackChars: 300_000,
} as const;

// Only what the judge reads from a completion; anything else an upstream sends is ignored.
const completionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullable().optional(), refusal: z.string().nullable().optional() }),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).nullable().optional(),
});

type AttemptOutcome =
  | { ok: true; answer: JudgeAnswer }
  | { ok: false; retryable: boolean; reason: JudgeUnavailableReason; cause: string };

/** Reads the verdict from a completion, or says why it is unusable (always worth another attempt). */
function readAnswer(raw: unknown): AttemptOutcome {
  const completion = completionSchema.safeParse(raw);
  if (!completion.success)
    return { ok: false, retryable: true, reason: 'invalid_answer', cause: 'the response is not a chat completion' };
  const choice = completion.data.choices[0]!;
  if (choice.message.refusal)
    return {
      ok: false,
      retryable: true,
      reason: 'invalid_answer',
      cause: `the model refused: ${choice.message.refusal.slice(0, 200)}`,
    };
  if (choice.finish_reason === 'length')
    return { ok: false, retryable: true, reason: 'invalid_answer', cause: 'the answer was cut off at the token limit' };
  // Some OpenAI-compatible upstreams wrap structured output in a code fence anyway.
  const content = (choice.message.content ?? '').trim().replace(/^```(?:json)?\s*\n?([\s\S]*?)\n?```$/, '$1');
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch {
    return {
      ok: false,
      retryable: true,
      reason: 'invalid_answer',
      cause: `the answer is not JSON: ${JSON.stringify(content.slice(0, 120))}`,
    };
  }
  const answer = judgeAnswerSchema.safeParse(json);
  if (!answer.success) {
    const issue = answer.error.issues[0]!;
    return {
      ok: false,
      retryable: true,
      reason: 'invalid_answer',
      cause: `the answer does not match the schema: field "${issue.path.join('.')}" ${issue.message}`,
    };
  }
  return { ok: true, answer: answer.data };
}

/** Transport errors, timeouts, 408/409/429/5xx are worth retrying; other 4xx say the request itself is wrong. */
function classifyError(error: unknown): AttemptOutcome & { ok: false } {
  if (error instanceof OpenAI.APIConnectionError)
    return { ok: false, retryable: true, reason: 'unreachable', cause: error.message };
  if (error instanceof OpenAI.APIError) {
    const status = error.status;
    const text = `${status ?? 'no status'} ${error.message}`.slice(0, 300);
    if (status === undefined || status === 408 || status === 409 || status === 429 || status >= 500)
      return { ok: false, retryable: true, reason: 'unreachable', cause: text };
    if (error.code === 'context_length_exceeded')
      return { ok: false, retryable: false, reason: 'pack_too_large', cause: text };
    return { ok: false, retryable: false, reason: 'refused', cause: text };
  }
  // A body that is not JSON at all, or anything else unexpected: treat as a bad answer and try again.
  return { ok: false, retryable: true, reason: 'invalid_answer', cause: (error as Error)?.message ?? String(error) };
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, not ${value}`);
  return value;
}

export async function judgePack(request: JudgePackRequest): Promise<JudgeVerdict> {
  const { client, model, pack, cache } = request;
  const maxAttempts = positiveInteger(request.maxAttempts ?? judgeDefaults.maxAttempts, 'maxAttempts');
  const timeoutMs = request.timeoutMs ?? judgeDefaults.timeoutMs;
  const retryDelayMs = request.retryDelayMs ?? judgeDefaults.retryDelayMs;
  const maxOutputTokens = positiveInteger(request.maxOutputTokens ?? judgeDefaults.maxOutputTokens, 'maxOutputTokens');
  const maxPackChars = request.maxPackChars ?? judgeDefaults.maxPackChars;
  // The boundary and the cache key rest on the hash: a wrong one would cache a verdict under another pack.
  const actualHash = computePackHash(pack);
  if (request.packHash !== actualHash)
    throw new Error(`judgePack: packHash ${request.packHash} is not the hash of the pack (${actualHash})`);

  const prompt = buildJudgeMessages(pack, actualHash, request.scenarios);
  const key = { packHash: actualHash, model, promptVersion: prompt.promptVersion };
  const hit = await cache.get(key);
  if (hit) {
    const { costHint: _paidEarlier, ...verdict } = hit;
    return { ...verdict, cached: true };
  }

  if (prompt.dataChars > maxPackChars) {
    throw new JudgeUnavailableError(
      'pack_too_large',
      0,
      [`the pack holds ${prompt.dataChars} characters of text; the judge reads at most ${maxPackChars}`],
      model,
    );
  }

  const causes: string[] = [];
  let reason: JudgeUnavailableReason = 'unreachable';
  const usage = { promptTokens: 0, completionTokens: 0 };
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    if (attempt > 1 && retryDelayMs > 0) await sleep(retryDelayMs * 2 ** (attempt - 2));
    let outcome: AttemptOutcome;
    try {
      // Typed as the OpenAI API's request; the upstream client takes any body.
      const body: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = {
        model,
        messages: prompt.messages,
        temperature: 0,
        // A different seed per attempt: deterministic upstreams (the sim fleet) repeat a fault for an identical
        // request.
        seed: attempt - 1,
        max_tokens: maxOutputTokens,
        response_format: judgeResponseFormat,
      };
      // Our loop is the only retry loop, so attempts are counted exactly.
      const completion = await client.chat.completions.create(body as never, { maxRetries: 0, timeout: timeoutMs });
      const counted = completionSchema.shape.usage.safeParse((completion as { usage?: unknown }).usage);
      if (counted.success && counted.data) {
        usage.promptTokens += counted.data.prompt_tokens;
        usage.completionTokens += counted.data.completion_tokens;
      }
      outcome = readAnswer(completion);
    } catch (error) {
      outcome = classifyError(error);
    }
    if (outcome.ok) {
      const decision = decideVerdict(outcome.answer, prompt.files);
      const verdict: CachedVerdict = {
        ...decision,
        model,
        promptVersion: prompt.promptVersion,
        costHint: { attempts: attempt, ...usage },
      };
      let cacheWriteError: string | undefined;
      try {
        await cache.set(key, verdict);
      } catch (error) {
        // The verdict is paid for and valid; failing here would only make the caller pay again.
        cacheWriteError = (error as Error).message;
      }
      return {
        ...verdict,
        cached: false,
        costHint: { attempts: attempt, ...usage, ...(cacheWriteError ? { cacheWriteError } : {}) },
      };
    }
    causes.push(`attempt ${attempt}: ${outcome.cause}`);
    reason = outcome.reason;
    if (!outcome.retryable) throw new JudgeUnavailableError(reason, attempt, causes, model, usage);
  }
  throw new JudgeUnavailableError(reason, maxAttempts, causes, model, usage);
}
