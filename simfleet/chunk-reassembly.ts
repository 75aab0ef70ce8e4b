// Folds streamed chunks back into one message, as OpenAI client libraries do. Used by the tests and
// by anyone checking a stream against its non-streamed twin.
import type { CompletionUsage, FinishReason } from './simulate-completion.ts';
import type { ChatCompletionChunk } from './sse.ts';

export interface ReassembledMessage {
  content: string | null;
  toolCalls: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  finishReason: FinishReason | null;
  usage: CompletionUsage | null;
}

export function reassembleChunks(chunks: readonly ChatCompletionChunk[]): ReassembledMessage {
  let content: string | null = null;
  const toolCalls: ReassembledMessage['toolCalls'] = [];
  let finishReason: FinishReason | null = null;
  let usage: CompletionUsage | null = null;
  for (const chunk of chunks) {
    if (chunk.usage) usage = chunk.usage;
    for (const choice of chunk.choices) {
      const { delta } = choice;
      if (typeof delta.content === 'string' && (delta.content !== '' || content !== null))
        content = (content ?? '') + delta.content;
      for (const call of delta.tool_calls ?? []) {
        const existing = (toolCalls[call.index] ??= {
          id: '',
          type: 'function',
          function: { name: '', arguments: '' },
        });
        if (call.id) existing.id = call.id;
        if (call.function.name) existing.function.name += call.function.name;
        existing.function.arguments += call.function.arguments;
      }
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
  }
  return { content, toolCalls, finishReason, usage };
}
