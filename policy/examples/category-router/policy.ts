// Category router: models differ by kind of task more than by anything else, and the kind of task is
// visible in the instruction the agent was given. Keyword rules score each category on the first
// user message (the task, weighted 3×) and on the latest turns (what the agent is actually doing);
// the best-scoring category picks the model, and a general strong model takes the rest:
//   sql → glm-5.3-flash (good at SQL, under a third of glm-5.2's price), debugging → glm-5.2 (good at
//   reading code), data wrangling → kimi-k3, git → glm-5.3-flash, configuration → qwen3.8-27b (large
//   window for long config files, cheap), anything else → glm-5.2.
// Once a category is found it is kept for the instruction, so one task keeps one model (stable
// behaviour, and the upstream's prompt cache keeps working); while the evidence is too thin the
// general model answers and the question is asked again on the next turn. A one-line, category-specific hint is added to the system
// prompt. If the routed model fails or is unaffordable, the default and then the cheapest answer.
import {
  affordableMaxTokens,
  contentText,
  definePolicy,
  firstUserText,
  isPolicyCallError,
  textCompletion,
  withSystemPrompt,
  type ChatCompletionRequest,
} from 'trl-policy-sdk';

type Category = 'sql' | 'debugging' | 'data-wrangling' | 'git' | 'config' | 'general';

const rules: Record<Exclude<Category, 'general'>, RegExp[]> = {
  sql: [/\bsql(?:ite3?)?\b/i, /\bselect\b[\s\S]{0,200}\bfrom\b/i, /\b(?:postgres(?:ql)?|mysql|database|\.db)\b/i, /\b(?:quer(?:y|ies)|schema|join|group by)\b/i],
  debugging: [/\b(?:bug|buggy|fix(?:es|ing)?)\b/i, /\b(?:traceback|exception|stack trace|crash(?:es)?|segfault)\b/i, /\b(?:failing|fails|broken|regression|wrong (?:result|output))\b/i, /\b(?:pytest|unit tests?|test suite)\b/i],
  'data-wrangling': [/\b(?:csv|tsv|jsonl?|parquet|xlsx)\b/i, /\b(?:pandas|dataframe|awk)\b/i, /\b(?:aggregate|summar(?:y|ise|ize)|pivot|dedupe|deduplicate|clean(?:ing)? (?:up )?the data)\b/i, /\b(?:columns?|rows?|records?|report)\b/i],
  git: [/\bgit\b/, /\b(?:commit|branch|rebase|cherry-pick|stash|bisect|merge conflict)s?\b/i, /\b(?:repository|repo|HEAD)\b/],
  config: [/\b(?:nginx|apache|systemd|cron(?:tab)?|docker-compose)\b/i, /\b(?:ya?ml|toml|\.ini|\.conf)\b/i, /\b(?:config(?:uration)?|settings|environment variables?)\b/i],
};

const routes: Record<Category, string> = {
  sql: 'glm-5.3-flash',
  debugging: 'glm-5.2',
  'data-wrangling': 'kimi-k3',
  git: 'glm-5.3-flash',
  config: 'qwen3.8-27b',
  general: 'glm-5.2',
};

const hints: Record<Category, string> = {
  sql: 'Inspect the real schema before writing queries, and check query results against the data before reporting them.',
  debugging: 'Reproduce the failure first, fix the root cause rather than the symptom, and rerun the tests after each change.',
  'data-wrangling': 'Look at a sample of the input before transforming it, watch for headers, blanks and odd encodings, and verify row counts after.',
  git: 'Check `git status` and `git log` before changing history, and prefer commands that do not discard work.',
  config: 'Validate configuration files with the service\'s own checker where one exists, and change only what the task asks.',
  general: '',
};

const defaultModel = routes.general;
const cheapestModel = 'qwen3.6-35b-a3b';
const wantedTokens = 4096;
const minimumTokens = 256;
/** Below this score the evidence is too thin and the general model answers. */
const minimumScore = 3;

function score(text: string, weight: number, totals: Map<Category, number>): void {
  for (const [category, patterns] of Object.entries(rules) as [Category, RegExp[]][]) {
    const hits = patterns.filter((pattern) => pattern.test(text)).length;
    totals.set(category, (totals.get(category) ?? 0) + hits * weight);
  }
}

/** The task's category from the instruction (3×) and the last few messages, including tool calls. */
function inferCategory(request: ChatCompletionRequest): Category {
  const totals = new Map<Category, number>();
  score(firstUserText(request), 3, totals);
  const recent = (Array.isArray(request.messages) ? request.messages : []).slice(-6);
  for (const message of recent) {
    const calls = message.role === 'assistant' && message.tool_calls ? message.tool_calls.map((call) => `${call.function?.name} ${call.function?.arguments}`).join('\n') : '';
    score(`${contentText(message.content ?? '').slice(0, 4_000)}\n${calls}`, 1, totals);
  }
  let best: Category = 'general';
  let bestScore = minimumScore - 1;
  for (const [category, total] of totals) {
    if (total > bestScore) [best, bestScore] = [category, total];
  }
  return best;
}

/** Scenario state: the category found for each instruction ("general" is never kept). */
const decided = new Map<string, Category>();

export default definePolicy({
  async complete(request, ctx) {
    const instruction = firstUserText(request);
    let category = decided.get(instruction);
    if (!category) {
      category = inferCategory(request);
      if (category !== 'general') {
        decided.set(instruction, category);
        ctx.log(`category ${category} → ${routes[category]}`);
      }
    }
    const routed = hints[category] ? withSystemPrompt(request, hints[category]) : request;
    const candidates = [...new Set([routes[category], defaultModel, cheapestModel])];
    let lastError: unknown;
    for (const model of candidates) {
      const maxTokens = affordableMaxTokens(ctx, model, routed, wantedTokens, { minimum: minimumTokens });
      if (maxTokens === 0) continue;
      try {
        return await ctx.call(model, routed, { maxTokens, branch: category });
      } catch (error) {
        lastError = error;
        if (isPolicyCallError(error) && error.type === 'cap') break;
        ctx.log(`${model} failed: ${(error as Error).message}`);
      }
    }
    if (lastError !== undefined && !(isPolicyCallError(lastError) && lastError.type === 'cap')) throw lastError;
    return textCompletion('The model budget for this task is spent; stopping here.');
  },
});
