// How many output tokens a call may ask for, and what to reserve for it, given the model, the
// prompt and the remaining budget. Pure: the heart of the hard cap.
import type { ModelEntry } from './catalog/allowlist.ts';

export interface CallPlanInput {
  model: ModelEntry;
  /** Our count of the prompt's tokens (an over-estimate; see prompt-tokens.ts). */
  promptTokens: number;
  requestedMaxTokens?: number;
  remainingUsd: number;
  /** Below this many affordable output tokens a call is refused rather than sent. */
  floorTokens: number;
}

export type CallPlan =
  | { ok: true; maxTokens: number; reserveUsd: number; inputCostUsd: number }
  | { ok: false; reason: 'budget_exceeded' | 'context_length_exceeded'; message: string };

export function planCall(input: CallPlanInput): CallPlan {
  const { model, promptTokens } = input;
  const inputPrice = model.pricing.inputUsdPerMillion / 1e6;
  const outputPrice = model.pricing.outputUsdPerMillion / 1e6;
  const contextRoom = model.contextWindow - promptTokens;
  if (contextRoom < input.floorTokens) {
    return { ok: false, reason: 'context_length_exceeded', message: `the prompt has about ${promptTokens} tokens; ${model.id} takes at most ${model.contextWindow}` };
  }
  // Input is reserved at the uncached price: caching can only make the real cost lower.
  const inputCostUsd = promptTokens * inputPrice;
  const affordable = Math.floor((input.remainingUsd - inputCostUsd) / outputPrice);
  const wanted = Math.min(input.requestedMaxTokens ?? model.maxOutputTokens, model.maxOutputTokens, contextRoom);
  const maxTokens = Math.min(wanted, affordable);
  if (maxTokens < Math.min(input.floorTokens, wanted) || maxTokens < 1) {
    return {
      ok: false,
      reason: 'budget_exceeded',
      message: `the scenario budget has $${input.remainingUsd.toFixed(6)} left; a call to ${model.id} with this prompt needs at least $${(inputCostUsd + Math.min(input.floorTokens, wanted) * outputPrice).toFixed(6)}`,
    };
  }
  return { ok: true, maxTokens, reserveUsd: inputCostUsd + maxTokens * outputPrice, inputCostUsd };
}
