// Streaming: a chat completion cut into OpenAI `chat.completion.chunk`s, and the server-sent-events
// framing (`data: {json}` lines, then `data: [DONE]`).
import type { ChatCompletion, CompletionUsage, FinishReason } from './simulate-completion.ts';

export interface ChunkToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function: { name?: string; arguments: string };
}

export interface ChunkDelta {
  role?: 'assistant';
  content?: string | null;
  tool_calls?: ChunkToolCallDelta[];
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  system_fingerprint: string;
  choices: { index: 0; delta: ChunkDelta; logprobs: null; finish_reason: FinishReason | null }[];
  usage?: CompletionUsage | null;
}

/** Characters per streamed piece: small enough to look like streaming, large enough to stay cheap. */
const pieceChars = 48;

/** Splits on code points, so no piece ends inside a surrogate pair. */
export function splitPieces(text: string, size = pieceChars): string[] {
  const codePoints = Array.from(text);
  const pieces: string[] = [];
  for (let i = 0; i < codePoints.length; i += size) pieces.push(codePoints.slice(i, i + size).join(''));
  return pieces;
}

export function completionChunks(completion: ChatCompletion, includeUsage: boolean): ChatCompletionChunk[] {
  const choice = completion.choices[0];
  const chunk = (delta: ChunkDelta, finishReason: FinishReason | null = null): ChatCompletionChunk => ({
    id: completion.id,
    object: 'chat.completion.chunk',
    created: completion.created,
    model: completion.model,
    system_fingerprint: completion.system_fingerprint,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    // With include_usage, OpenAI sends usage: null on every chunk but the last.
    ...(includeUsage ? { usage: null } : {}),
  });
  const { message } = choice;
  const chunks: ChatCompletionChunk[] = [];
  const toolCalls = message.tool_calls ?? [];
  if (toolCalls.length === 0) {
    chunks.push(chunk({ role: 'assistant', content: '' }));
    for (const piece of splitPieces(message.content ?? '')) chunks.push(chunk({ content: piece }));
  } else {
    chunks.push(chunk({ role: 'assistant', content: null }));
    toolCalls.forEach((call, index) => {
      chunks.push(
        chunk({
          tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }],
        }),
      );
      for (const piece of splitPieces(call.function.arguments))
        chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
  }
  chunks.push(chunk({}, choice.finish_reason));
  if (includeUsage) chunks.push({ ...chunk({}), choices: [], usage: completion.usage });
  return chunks;
}

export function sseEvent(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

export const sseDone = 'data: [DONE]\n\n';
