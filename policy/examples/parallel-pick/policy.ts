// Parallel pick: three models answer the same request at once (so latency is the slowest of them,
// not their sum) and one answer is kept, by a fixed rule:
//   1. usable beats unusable: well-formed tool calls beat text (the agent is mid-task and acts
//      through tools), text beats malformed tool calls or an empty answer;
//   2. agreement: an action two models independently chose is more likely right;
//   3. then the stronger model (panel order).
// Three models cost about three times one, so the panel shrinks as the budget runs down, and each
// member's output is capped to its share of what remains. When every member fails, one cheap model
// is tried before the error reaches the agent.
import {
  affordableMaxTokens,
  completionSignature,
  completionText,
  definePolicy,
  hasMalformedToolCalls,
  hasToolCalls,
  isPolicyCallError,
  textCompletion,
  type ChatCompletion,
  type ChatCompletionRequest,
} from 'trl-policy-sdk';

/** Strongest first: the order breaks ties. */
const panel = ['glm-5.2', 'glm-5.3-flash', 'deepseek-v4.1-flash'];
const lastResort = 'qwen3.6-35b-a3b';
const wantedTokens = 4096;
const minimumTokens = 256;

type Candidate = { model: string; rank: number; response: ChatCompletion };

/** 2 well-formed tool calls (or any non-empty text when no tools were offered), 1 text, 0 unusable. */
function quality(response: ChatCompletion, request: ChatCompletionRequest): number {
  if (!Array.isArray(response?.choices) || response.choices.length === 0) return 0;
  if (hasMalformedToolCalls(response, request)) return 0;
  if (hasToolCalls(response)) return 2;
  if (completionText(response).trim() === '') return 0;
  return request.tools?.length ? 1 : 2;
}

/** The rule above, as a pure function: the best candidate, or undefined for an empty list. */
function pick(candidates: Candidate[], request: ChatCompletionRequest): Candidate | undefined {
  const scored = candidates.map((candidate) => ({ candidate, quality: quality(candidate.response, request), signature: completionSignature(candidate.response) }));
  const agreement = (signature: string) => scored.filter((other) => other.quality > 0 && other.signature === signature).length;
  scored.sort((a, b) => b.quality - a.quality || agreement(b.signature) - agreement(a.signature) || a.candidate.rank - b.candidate.rank);
  return scored[0]?.candidate;
}

/** Fewer voices as money runs out: three while more than 40% of the cap is left, then two, then one. */
function panelFor(remainingFraction: number): string[] {
  if (remainingFraction > 0.4) return panel;
  if (remainingFraction > 0.15) return panel.slice(0, 2);
  return panel.slice(0, 1);
}

export default definePolicy({
  async complete(request, ctx) {
    const { capUsd, remainingUsd } = ctx.budget;
    const members = panelFor(capUsd > 0 ? remainingUsd / capUsd : 0);
    const shareUsd = remainingUsd / members.length;
    const planned = members
      .map((model, rank) => ({ model, rank, maxTokens: affordableMaxTokens(ctx, model, request, wantedTokens, { minimum: minimumTokens, shareUsd }) }))
      .filter((plan) => plan.maxTokens > 0);

    const settled = await Promise.allSettled(planned.map((plan) => ctx.call(plan.model, request, { maxTokens: plan.maxTokens, branch: plan.model })));
    const candidates: Candidate[] = [];
    const errors: unknown[] = [];
    settled.forEach((outcome, index) => {
      const plan = planned[index]!;
      if (outcome.status === 'fulfilled') candidates.push({ model: plan.model, rank: plan.rank, response: outcome.value });
      else errors.push(outcome.reason);
    });

    const best = pick(candidates, request);
    if (best) {
      ctx.log(`picked ${best.model} of ${candidates.map((candidate) => candidate.model).join(', ')}`);
      return best.response;
    }

    // Nobody answered: one cheap attempt, unless the budget is what stopped them.
    const budgetGone = errors.some((error) => isPolicyCallError(error) && error.type === 'cap');
    const maxTokens = affordableMaxTokens(ctx, lastResort, request, wantedTokens, { minimum: minimumTokens });
    if (budgetGone || maxTokens === 0) return textCompletion('The model budget for this task is spent; stopping here.');
    return ctx.call(lastResort, request, { maxTokens, branch: 'last-resort' });
  },
});
