// Reading the conversation: the text of messages whatever their content shape, and small rewrites
// (system prompts) that return a new request instead of mutating the agent's.
import type { ChatCompletionRequest, ChatMessage, ChatRole, MessageContent } from './types.ts';

/** The text of a message's content: strings as is, text parts joined by newlines, other parts skipped. */
export function contentText(content: MessageContent | null | undefined): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (part && part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .filter((text) => text.length > 0)
    .join('\n');
}

export function messageText(message: ChatMessage | undefined): string {
  return message ? contentText(message.content) : '';
}

function messagesOf(request: ChatCompletionRequest): ChatMessage[] {
  return Array.isArray(request?.messages) ? request.messages : [];
}

/** The most recent message with this role, or undefined. */
export function lastMessageOf(request: ChatCompletionRequest, role: ChatRole): ChatMessage | undefined {
  const messages = messagesOf(request);
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === role) return messages[i];
  return undefined;
}

/** The text of the latest user message ('' when there is none). */
export function lastUserText(request: ChatCompletionRequest): string {
  return messageText(lastMessageOf(request, 'user'));
}

/** The text of the first user message: in agent scenarios, usually the task instruction. */
export function firstUserText(request: ChatCompletionRequest): string {
  return messageText(messagesOf(request).find((message) => message.role === 'user'));
}

/** System and developer prompts joined. */
export function systemText(request: ChatCompletionRequest): string {
  return messagesOf(request)
    .filter((message) => message.role === 'system' || message.role === 'developer')
    .map(messageText)
    .join('\n');
}

/** How many answers the agent has already received in this conversation. */
export function assistantTurnCount(request: ChatCompletionRequest): number {
  return messagesOf(request).filter((message) => message.role === 'assistant').length;
}

/** A copy of the request with `text` added to the system prompt (a new system message when there is none). */
export function withSystemPrompt(
  request: ChatCompletionRequest,
  text: string,
  where: 'append' | 'prepend' = 'append',
): ChatCompletionRequest {
  const messages = [...messagesOf(request)];
  const index = messages.findIndex((message) => message.role === 'system');
  const existing = index >= 0 ? messages[index] : undefined;
  if (!existing) return { ...request, messages: [{ role: 'system', content: text }, ...messages] };
  const current = messageText(existing);
  const content = where === 'append' ? `${current}\n\n${text}` : `${text}\n\n${current}`;
  messages[index] = { role: 'system', content };
  return { ...request, messages };
}
