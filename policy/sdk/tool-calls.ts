// Checking a completion's tool calls before the agent runs them: a call whose arguments are not a
// JSON object, or that names a tool the agent did not offer, is a wasted turn at best.
import type { ChatCompletion, ChatCompletionRequest, ToolCall } from './types.ts';

export function toolCallsOf(completion: ChatCompletion | undefined): ToolCall[] {
  const calls = completion?.choices?.[0]?.message?.tool_calls;
  return Array.isArray(calls) ? calls : [];
}

export function hasToolCalls(completion: ChatCompletion | undefined): boolean {
  return toolCallsOf(completion).length > 0;
}

/** The parsed arguments of a tool call, or undefined when they are not a JSON object. */
export function parseToolArguments(call: ToolCall): Record<string, unknown> | undefined {
  const raw = call?.function?.arguments;
  if (typeof raw !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(raw.trim() === '' ? '{}' : raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True when any tool call is unusable: no function name, arguments that are not a JSON object, or
 * (when the request is given) a tool name the request did not declare.
 */
export function hasMalformedToolCalls(
  completion: ChatCompletion | undefined,
  request?: ChatCompletionRequest,
): boolean {
  const declared = request?.tools ? new Set(request.tools.map((tool) => tool?.function?.name)) : undefined;
  return toolCallsOf(completion).some((call) => {
    const name = call?.function?.name;
    if (typeof name !== 'string' || name.trim() === '') return true;
    if (declared && !declared.has(name)) return true;
    return parseToolArguments(call) === undefined;
  });
}

function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonical(inner)}`).join(',')}}`;
}

/**
 * A key that is equal for two completions making the same tool calls (names and arguments, key
 * order ignored), or saying the same text (case and spacing ignored). Used to count agreement.
 */
export function completionSignature(completion: ChatCompletion | undefined): string {
  const calls = toolCallsOf(completion);
  if (calls.length > 0) {
    return calls
      .map((call) => `${call?.function?.name}(${canonical(parseToolArguments(call) ?? call?.function?.arguments)})`)
      .join(';');
  }
  const content = completion?.choices?.[0]?.message?.content;
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((part) => (part.type === 'text' ? String(part.text) : '')).join('')
        : '';
  return `text:${text.toLowerCase().replace(/\s+/g, ' ').trim()}`;
}
