// Baseline: every request goes to deepseek-v4.1-flash, the cheapest model, unchanged. Whatever a
// cleverer policy spends above this must buy tests passed. One retry on a retryable error (a 429 or
// a 5xx is the fleet's fault, not the model's), and a plain "budget spent" answer instead of an
// error when not even a short reply is affordable, so the agent stops cleanly.
import { affordableMaxTokens, definePolicy, isRetryableError, textCompletion } from 'trl-policy-sdk';

const model = 'deepseek-v4.1-flash';
const wantedTokens = 4096;
const minimumTokens = 256;

export default definePolicy({
  async complete(request, ctx) {
    const maxTokens = affordableMaxTokens(ctx, model, request, wantedTokens, { minimum: minimumTokens });
    if (maxTokens === 0) return textCompletion('The model budget for this task is spent; stopping here.');
    try {
      return await ctx.call(model, request, { maxTokens });
    } catch (error) {
      if (!isRetryableError(error)) throw error;
      ctx.log('retrying once after', (error as Error).message);
      return ctx.call(model, request, { maxTokens, branch: 'retry' });
    }
  },
});
