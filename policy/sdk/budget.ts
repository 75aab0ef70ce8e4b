// Budget arithmetic for policies: estimate what a call costs and how many output tokens the
// remaining budget buys. The gateway enforces the cap anyway; these let a policy choose before it
// is refused (e.g. drop to a cheaper model instead of a 402 `cap` refusal).
import type { ChatCompletionRequest, ModelInfo, PolicyContext } from './types.ts';

/** A rough token count (about four characters a token, plus per-message overhead). Errs high. */
export function estimateTokens(request: ChatCompletionRequest): number {
  let characters = 0;
  for (const message of Array.isArray(request?.messages) ? request.messages : []) {
    characters += 16;
    const content = (message as { content?: unknown }).content;
    characters += typeof content === 'string' ? content.length : content ? JSON.stringify(content).length : 0;
    if (message.role === 'assistant' && message.tool_calls) characters += JSON.stringify(message.tool_calls).length;
  }
  if (request?.tools) characters += JSON.stringify(request.tools).length;
  return Math.ceil(characters / 3.5);
}

export function findModel(models: readonly ModelInfo[], id: string): ModelInfo | undefined {
  return models.find((model) => model.id === id);
}

/** Estimated worst-case cost in USD of sending `request` to `model` with `maxTokens` of output. */
export function estimateCallCostUsd(model: ModelInfo, request: ChatCompletionRequest, maxTokens: number): number {
  return (estimateTokens(request) * model.inputUsdPerMillion + maxTokens * model.outputUsdPerMillion) / 1e6;
}

/**
 * The output tokens to ask `modelId` for: `wanted`, clamped to the model's limit and to what the
 * remaining budget (or `shareUsd` of it, for fan-outs) can buy after the input. 0 when the
 * model is unknown or not even `minimum` tokens are affordable.
 */
export function affordableMaxTokens(
  ctx: Pick<PolicyContext, 'models' | 'budget'>,
  modelId: string,
  request: ChatCompletionRequest,
  wanted: number,
  options: { minimum?: number; shareUsd?: number } = {},
): number {
  const model = findModel(ctx.models, modelId);
  if (!model) return 0;
  const available = Math.min(ctx.budget.remainingUsd, options.shareUsd ?? Number.POSITIVE_INFINITY);
  const inputUsd = (estimateTokens(request) * model.inputUsdPerMillion) / 1e6;
  const forOutput = available - inputUsd;
  if (forOutput <= 0) return 0;
  const buyable = Math.floor((forOutput * 1e6) / model.outputUsdPerMillion);
  const tokens = Math.min(wanted, model.maxOutputTokens, buyable);
  return tokens >= (options.minimum ?? 1) ? Math.floor(tokens) : 0;
}

/** Whether the context window of `modelId` can hold the request plus `outputTokens`. */
export function fitsContext(
  models: readonly ModelInfo[],
  modelId: string,
  request: ChatCompletionRequest,
  outputTokens = 0,
): boolean {
  const model = findModel(models, modelId);
  return model !== undefined && estimateTokens(request) + outputTokens <= model.contextWindow;
}
