// Token counts with a real tokenizer (o200k_base, ranks bundled in js-tiktoken: nothing is downloaded).
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { contentText, type ChatRequest, type ChatMessage, type ToolDefinition } from './request-schema.ts';
import { BoundedMemo } from '../common/bounded-memo.ts';

// Built on first use: constructing it takes about half a second.
let encoder: Tiktoken | undefined;
function tokenizer(): Tiktoken {
  encoder ??= new Tiktoken(o200kBase);
  return encoder;
}

/** Per-message framing tokens and the reply primer, as in OpenAI's chat format. */
export const tokensPerMessage = 3;
export const replyPrimerTokens = 3;
const cacheBlockTokens = 64;

// Counting is the fleet's costliest step, and an agent sends its whole conversation again on every
// call: the same texts are counted over and over. Counts are kept by text, at most 8 M characters.
const counted = new BoundedMemo((text) => tokenizer().encode(text).length, {
  maxChars: 8 * 1024 * 1024,
  maxEntryChars: 1024 * 1024,
});

export function countTokens(text: string): number {
  return text === '' ? 0 : counted.get(text);
}

/** The longest prefix of text that fits in maxTokens tokens. */
export function truncateToTokens(text: string, maxTokens: number): string {
  if (maxTokens <= 0) return '';
  // Most replies fit: the kept count answers, and the caller's count of the result is kept too.
  if (countTokens(text) <= maxTokens) return text;
  const tokens = tokenizer().encode(text);
  let keep = maxTokens;
  let truncated = tokenizer().decode(tokens.slice(0, keep));
  // A cut inside a multi-byte character decodes to a replacement character that may re-encode longer.
  while (keep > 0 && (countTokens(truncated) > maxTokens || !text.startsWith(truncated))) {
    keep -= 1;
    truncated = tokenizer().decode(tokens.slice(0, keep));
  }
  return truncated;
}

function messageTokens(message: ChatMessage): number {
  let text = message.role + contentText(message.content);
  if ('name' in message && typeof message.name === 'string') text += message.name;
  if (message.role === 'assistant')
    for (const call of message.tool_calls ?? []) text += call.function.name + call.function.arguments;
  if (message.role === 'tool') text += message.tool_call_id;
  return tokensPerMessage + countTokens(text);
}

function toolDefinitionTokens(tools: readonly ToolDefinition[] | null | undefined): number {
  return tools && tools.length > 0 ? countTokens(JSON.stringify(tools)) : 0;
}

export interface PromptTokens {
  promptTokens: number;
  cachedTokens: number;
}

/**
 * Prompt tokens of a request: every message (role, content, tool calls) plus the tool definitions.
 * Cached tokens model a prefix cache: all messages before the last, in whole 64-token blocks, once
 * the conversation has more than two messages.
 */
export function countPromptTokens(request: Pick<ChatRequest, 'messages' | 'tools'>): PromptTokens {
  const perMessage = request.messages.map(messageTokens);
  const messagesTotal = perMessage.reduce((sum, n) => sum + n, 0);
  const promptTokens = messagesTotal + toolDefinitionTokens(request.tools) + replyPrimerTokens;
  let cachedTokens = 0;
  if (request.messages.length > 2) {
    const prefix = messagesTotal - perMessage[perMessage.length - 1]!;
    cachedTokens = Math.floor(prefix / cacheBlockTokens) * cacheBlockTokens;
  }
  return { promptTokens, cachedTokens };
}
