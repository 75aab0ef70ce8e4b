// Server-sent events in the OpenAI streaming shape, and turning a whole completion into chunks
// (for agents that ask to stream while the policy answered in one piece).
import type { ServerResponse } from 'node:http';

export function startSse(response: ServerResponse): void {
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
}

export function writeSse(response: ServerResponse, data: unknown): void {
  response.write(`data: ${JSON.stringify(data)}\n\n`);
}

export function endSse(response: ServerResponse): void {
  response.write('data: [DONE]\n\n');
  response.end();
}

interface ToolCall {
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}
interface Completion {
  id?: string;
  created?: number;
  model?: string;
  system_fingerprint?: string;
  choices?: {
    index?: number;
    finish_reason?: string | null;
    message?: { role?: string; content?: string | null; tool_calls?: ToolCall[]; reasoning_content?: string };
  }[];
  usage?: unknown;
}

/** The chunks an OpenAI server would have streamed for this completion; usage last when asked. */
export function completionToChunks(completion: Completion, includeUsage: boolean, pieceChars = 64): unknown[] {
  const base = {
    id: completion.id ?? 'chatcmpl-policy',
    object: 'chat.completion.chunk',
    created: completion.created ?? 0,
    model: completion.model ?? 'auto',
    system_fingerprint: completion.system_fingerprint,
  };
  const chunks: unknown[] = [];
  for (const choice of completion.choices ?? []) {
    const index = choice.index ?? 0;
    const message = choice.message ?? {};
    chunks.push({ ...base, choices: [{ index, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
    const content = message.content ?? '';
    for (let i = 0; i < content.length; i += pieceChars) {
      chunks.push({
        ...base,
        choices: [{ index, delta: { content: content.slice(i, i + pieceChars) }, finish_reason: null }],
      });
    }
    (message.tool_calls ?? []).forEach((call, callIndex) => {
      chunks.push({
        ...base,
        choices: [
          {
            index,
            delta: {
              tool_calls: [
                {
                  index: callIndex,
                  id: call.id,
                  type: call.type ?? 'function',
                  function: { name: call.function?.name, arguments: '' },
                },
              ],
            },
            finish_reason: null,
          },
        ],
      });
      const args = call.function?.arguments ?? '';
      for (let i = 0; i < args.length; i += pieceChars) {
        chunks.push({
          ...base,
          choices: [
            {
              index,
              delta: { tool_calls: [{ index: callIndex, function: { arguments: args.slice(i, i + pieceChars) } }] },
              finish_reason: null,
            },
          ],
        });
      }
    });
    chunks.push({ ...base, choices: [{ index, delta: {}, finish_reason: choice.finish_reason ?? 'stop' }] });
  }
  if (includeUsage && completion.usage) chunks.push({ ...base, choices: [], usage: completion.usage });
  return chunks;
}
