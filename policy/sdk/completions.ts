// Reading and making completions: the first choice's text, a model that gave up, and a synthetic
// answer for when no model can be called (budget gone) but the agent still needs one response.
import { contentText } from './messages.ts';
import { hasToolCalls } from './tool-calls.ts';
import type { ChatCompletion } from './types.ts';

export function completionText(completion: ChatCompletion | undefined): string {
  return contentText(completion?.choices?.[0]?.message?.content ?? '');
}

const givingUpPatterns: RegExp[] = [
  /\bI(?:'m| am) (?:unable|not able) to\b/i,
  /\bI (?:can(?:no|')t|could(?:n't| not)) (?:complete|solve|do|help|finish|fix|determine|proceed|access)\b/i,
  /\bI(?:'m| am) sorry,? but\b/i,
  /\bunable to (?:complete|solve|proceed|finish)\b/i,
  /\bI (?:don't|do not) know how to\b/i,
  // Uncertainty about its own result is a weaker surrender, but still worth a second opinion.
  /\bI (?:can(?:no|')t|could(?:n't| not)) (?:verify|confirm|be sure)\b/i,
  /\bmay (?:have missed|not (?:be|have been) (?:correct|complete))\b/i,
  /\bas an AI\b/i,
];

/**
 * True when the answer has no tool calls and reads like a refusal or surrender ("I'm unable to …").
 * A final "done" message is not giving up; neither is any answer that calls tools.
 */
export function looksLikeGivingUp(completion: ChatCompletion | undefined): boolean {
  if (!completion || hasToolCalls(completion)) return false;
  const choice = completion.choices?.[0];
  if (!choice) return true;
  if (choice.message?.refusal) return true;
  const text = completionText(completion).trim();
  if (text === '') return true;
  return givingUpPatterns.some((pattern) => pattern.test(text.slice(0, 2_000)));
}

/** True when the first choice has neither text nor tool calls. */
export function isEmptyCompletion(completion: ChatCompletion | undefined): boolean {
  return !hasToolCalls(completion) && completionText(completion).trim() === '';
}

let syntheticCounter = 0;

/** A well-formed completion carrying only text, e.g. to tell the agent the budget is spent. */
export function textCompletion(
  content: string,
  options: { model?: string; finishReason?: 'stop' | 'length' } = {},
): ChatCompletion {
  syntheticCounter += 1;
  return {
    id: `policy-${syntheticCounter}`,
    object: 'chat.completion',
    created: 0,
    model: options.model ?? 'policy',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: options.finishReason ?? 'stop' }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}
