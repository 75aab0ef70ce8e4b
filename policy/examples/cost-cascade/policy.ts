// Cost cascade: most agent turns are easy (read a file, run a command), so they go to the cheapest
// model; a stronger model is paid for only when there is evidence the cheap one is not coping:
//   - its answer is unusable: a tool call whose arguments are not JSON, or a tool that does not exist;
//   - it gives up ("I'm unable to …") or answers with nothing;
//   - the transcript shows repeated tool failures (tracebacks, non-zero exits) since the last climb;
//   - its call fails (5xx, timeout, context too long).
// A climb is remembered in module state for the rest of the scenario: a model that struggled once on
// this task will likely struggle again. A 429 is the exception: it says the model is busy, not weak,
// so that request moves up but the next one starts where it was. When the budget cannot buy the
// current rung, cheaper rungs are tried before giving the agent a plain "budget spent" answer.
import {
  affordableMaxTokens,
  countToolErrors,
  definePolicy,
  fitsContext,
  hasMalformedToolCalls,
  isPolicyCallError,
  looksLikeGivingUp,
  textCompletion,
  type ChatCompletion,
  type ChatCompletionRequest,
  type PolicyContext,
} from 'trl-policy-sdk';

const ladder = ['qwen3.6-35b-a3b', 'glm-5.3-flash', 'glm-5.2'];
const wantedTokens = 4096;
const minimumTokens = 256;
/** New failing tool results (since the last climb) that make the cascade climb one rung. */
const toolErrorsPerClimb = 3;

// Scenario state: one runner serves one scenario.
let level = 0;
let toolErrorsAtLastClimb = 0;

function climb(to: number, reason: string, toolErrors: number, ctx: PolicyContext): void {
  const target = Math.min(to, ladder.length - 1);
  if (target <= level) return;
  level = target;
  toolErrorsAtLastClimb = toolErrors;
  ctx.log(`climbing to ${ladder[level]}: ${reason}`);
}

/** Why a response should not be trusted, or undefined when it is fine. */
function problemWith(response: ChatCompletion, request: ChatCompletionRequest): string | undefined {
  if (!Array.isArray(response?.choices) || response.choices.length === 0) return 'no choices in the response';
  if (hasMalformedToolCalls(response, request)) return 'malformed tool call';
  if (looksLikeGivingUp(response)) return 'the model gave up or answered with nothing';
  return undefined;
}

export default definePolicy({
  async complete(request, ctx) {
    const toolErrors = countToolErrors(request);
    if (toolErrors - toolErrorsAtLastClimb >= toolErrorsPerClimb) {
      climb(level + 1, `${toolErrors - toolErrorsAtLastClimb} failing tool results`, toolErrors, ctx);
    }

    // The current rung and up first; cheaper rungs only as budget or availability fallbacks.
    const order = [...ladder.keys()].filter((rung) => rung >= level).concat([...ladder.keys()].filter((rung) => rung < level).reverse());
    let fallback: ChatCompletion | undefined;
    let lastError: unknown;
    let budgetShort = false;
    let tooLong = false;
    for (const rung of order) {
      const model = ladder[rung]!;
      if (!fitsContext(ctx.models, model, request)) {
        tooLong = true;
        continue;
      }
      const maxTokens = affordableMaxTokens(ctx, model, request, wantedTokens, { minimum: minimumTokens });
      if (maxTokens === 0) {
        budgetShort = true;
        continue;
      }
      let response: ChatCompletion;
      try {
        response = await ctx.call(model, request, { maxTokens, branch: `rung-${rung}` });
      } catch (error) {
        lastError = error;
        if (isPolicyCallError(error) && error.type === 'cap') {
          budgetShort = true;
          continue;
        }
        const transient = isPolicyCallError(error) && error.type === 'rate_limited';
        if (!transient && rung >= level) climb(rung + 1, `${model} failed: ${(error as Error).message}`, toolErrors, ctx);
        continue;
      }
      const problem = problemWith(response, request);
      if (!problem || rung === ladder.length - 1) return response;
      fallback ??= response;
      if (rung >= level) climb(rung + 1, `${model}: ${problem}`, toolErrors, ctx);
    }
    if (fallback) return fallback;
    if (lastError !== undefined && !budgetShort) throw lastError;
    if (budgetShort) return textCompletion('The model budget for this task is spent; stopping here.');
    if (tooLong) return textCompletion('The conversation no longer fits the context window of any model; stopping here.');
    throw lastError;
  },
});
