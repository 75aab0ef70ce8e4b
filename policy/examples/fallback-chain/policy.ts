// Fallback chain: quality first, availability second. Every request goes to the strongest model;
// when its call fails with a retryable error (429 rate limit, 5xx, timeout), the next model in the
// chain answers instead, so a busy upstream costs a turn's latency rather than the scenario.
//   - A non-retryable error (bad request, model not allowed) would fail the same way elsewhere, so
//     it is passed to the agent at once and no money is spent repeating it. Two exceptions:
//     context_length_exceeded moves to a model with a larger window, and a 402 `cap` ends the
//     task with a plain answer.
//   - A model that answered 429 rests (goes to the back of the chain) for the next few requests,
//     counted in requests rather than seconds so runs stay reproducible.
//   - Models the remaining budget cannot buy are skipped in favour of cheaper ones.
import { affordableMaxTokens, definePolicy, findModel, isPolicyCallError, textCompletion } from 'trl-policy-sdk';

// Strong first; qwen3.8-27b last because its window (1M tokens) takes conversations that outgrew the rest.
const chain = ['glm-5.2', 'kimi-k3', 'glm-5.3-flash', 'qwen3.6-35b-a3b', 'qwen3.8-27b'];
const wantedTokens = 4096;
const minimumTokens = 256;
const restRequests = 3;

/** Scenario state: model → requests it still rests for. */
const resting = new Map<string, number>();

function orderForThisRequest(): string[] {
  const order = [...chain.filter((model) => !resting.has(model)), ...chain.filter((model) => resting.has(model))];
  for (const [model, left] of resting) {
    if (left <= 1) resting.delete(model);
    else resting.set(model, left - 1);
  }
  return order;
}

export default definePolicy({
  async complete(request, ctx) {
    const order = orderForThisRequest();
    let minimumContext = 0;
    let lastError: unknown;
    for (const model of order) {
      if ((findModel(ctx.models, model)?.contextWindow ?? 0) <= minimumContext) continue;
      const maxTokens = affordableMaxTokens(ctx, model, request, wantedTokens, { minimum: minimumTokens });
      if (maxTokens === 0) continue;
      try {
        return await ctx.call(model, request, { maxTokens, branch: model });
      } catch (error) {
        lastError = error;
        if (!isPolicyCallError(error)) throw error;
        if (error.type === 'cap') break;
        if (error.type === 'context_length_exceeded') {
          minimumContext = Math.max(minimumContext, findModel(ctx.models, model)?.contextWindow ?? 0);
          ctx.log(`${model}: context too long; trying models with a larger window`);
          continue;
        }
        if (!error.retryable) throw error;
        if (error.status === 429) resting.set(model, restRequests);
        ctx.log(`${model} failed (${error.status} ${error.type}); next in chain`);
      }
    }
    // Every model failed: pass the last error on, unless money is what ran out (then stop cleanly).
    if (lastError !== undefined && !(isPolicyCallError(lastError) && lastError.type === 'cap')) throw lastError;
    return textCompletion('The model budget for this task is spent; stopping here.');
  },
});
