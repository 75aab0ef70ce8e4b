// Signals in the transcript that the agent is struggling: tool results that read like failures.
// Heuristics on text, so they are deliberately conservative (a test log that says "0 errors" is fine).
import { contentText } from './messages.ts';
import type { ChatCompletionRequest } from './types.ts';

const errorPatterns: RegExp[] = [
  /Traceback \(most recent call last\)/,
  /^\s*(?:\w+\.)*\w*(?:Error|Exception)(?::|\s*$)/m,
  /\b(?:error|fatal|panic)(?:\[\w+\])?:/i,
  /command not found/i,
  /No such file or directory/i,
  /Permission denied/i,
  /\bsyntax error\b/i,
  /\bSegmentation fault\b/i,
  /\b[1-9]\d* (?:failed|errors?)\b/i,
  /\bFAILED\b/,
  /\bexit (?:code|status)[:=]?\s*[1-9]\d*/i,
  /"exit_code":\s*[1-9]\d*/,
  /"(?:success|ok)":\s*false/,
];

/** Whether a tool result reads like a failure (stack trace, non-zero exit, "command not found", …). */
export function looksLikeToolError(text: string): boolean {
  if (!text) return false;
  // Long outputs: only the head and tail matter, and scanning megabytes costs time.
  const sample = text.length > 20_000 ? `${text.slice(0, 10_000)}\n${text.slice(-10_000)}` : text;
  return errorPatterns.some((pattern) => pattern.test(sample));
}

/**
 * How many tool results in the conversation read like failures. `lastToolMessages` limits the
 * count to the most recent tool results, which is what matters for "is the agent stuck now".
 */
export function countToolErrors(request: ChatCompletionRequest, options: { lastToolMessages?: number } = {}): number {
  const messages = Array.isArray(request?.messages) ? request.messages : [];
  let toolResults = messages.filter((message) => message?.role === 'tool');
  if (options.lastToolMessages !== undefined) toolResults = toolResults.slice(-Math.max(0, options.lastToolMessages));
  return toolResults.filter((message) => looksLikeToolError(contentText(message.content))).length;
}

/** How many tool results there are in the conversation. */
export function countToolResults(request: ChatCompletionRequest): number {
  const messages = Array.isArray(request?.messages) ? request.messages : [];
  return messages.filter((message) => message?.role === 'tool').length;
}
