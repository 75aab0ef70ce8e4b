// The line protocol between the trusted policy host (in the worker) and the policy runner (inside
// the policy sandbox): one JSON object per line each way on a unix socket
// (policy/host/policy-channel.ts). The runner side is
// policy/runtime/runner.mjs (plain JS, Node 18, no dependencies); this file is the host's view,
// validated with zod because everything the runner says is hostile.
import { z } from 'zod';

export const maxProtocolLineBytes = 4 * 1024 * 1024;

export const modelInfoSchema = z.object({
  id: z.string(),
  inputUsdPerMillion: z.number(),
  cachedInputUsdPerMillion: z.number(),
  outputUsdPerMillion: z.number(),
  contextWindow: z.number(),
  maxOutputTokens: z.number(),
  supportsTools: z.boolean(),
});
export type ModelInfo = z.infer<typeof modelInfoSchema>;

export const budgetSchema = z.object({ capUsd: z.number(), spentUsd: z.number(), remainingUsd: z.number() });
export type BudgetView = z.infer<typeof budgetSchema>;

export const callErrorSchema = z.object({
  status: z.number().int(),
  /** OpenAI-style error type: cap (402), model_not_allowed, rate_limited, upstream_error, upstream_timeout,
   * upstream_unavailable, context_length_exceeded, invalid_request. */
  type: z.string(),
  message: z.string(),
  retryable: z.boolean(),
});
export type CallError = z.infer<typeof callErrorSchema>;

/** host → runner */
export type HostMessage =
  | { t: 'init'; bundlePath: string; models: ModelInfo[]; budget: BudgetView }
  | { t: 'request'; id: string; body: unknown; budget: BudgetView }
  | { t: 'call_result'; callId: string; ok: true; body: unknown; budget: BudgetView }
  | { t: 'call_result'; callId: string; ok: false; error: CallError; budget: BudgetView };

/** runner → host */
export const runnerMessageSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('ready') }),
  z.object({ t: z.literal('fatal'), message: z.string().max(10_000) }),
  z.object({
    t: z.literal('call'),
    callId: z.string().max(200),
    requestId: z.string().max(200),
    model: z.string().max(200),
    body: z.record(z.string(), z.unknown()),
    options: z
      .object({ maxTokens: z.number().int().positive().optional(), branch: z.string().max(100).optional() })
      .default({}),
  }),
  z.object({
    t: z.literal('log'),
    requestId: z.string().max(200).optional(),
    level: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
    message: z.string().max(10_000),
  }),
  z.object({ t: z.literal('response'), id: z.string().max(200), body: z.unknown() }),
  z.object({ t: z.literal('error'), id: z.string().max(200), message: z.string().max(10_000) }),
]);
export type RunnerMessage = z.infer<typeof runnerMessageSchema>;
