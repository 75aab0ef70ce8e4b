// Counting a request's prompt tokens before it goes out, with a real tokenizer. The count is
// taken over the JSON of messages and tools plus a margin, so it over-estimates what an upstream
// bills: reservations then cover the real input cost.
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';

let encoder: Tiktoken | undefined;

function tokenizer(): Tiktoken {
  encoder ??= new Tiktoken(o200k);
  return encoder;
}

export function countTextTokens(text: string): number {
  return tokenizer().encode(text, 'all').length;
}

export function estimatePromptTokens(body: { messages?: unknown; tools?: unknown; response_format?: unknown }): number {
  const text = JSON.stringify([body.messages ?? [], body.tools ?? [], body.response_format ?? null]);
  const counted = countTextTokens(text);
  return Math.ceil(counted * 1.05) + 64;
}
