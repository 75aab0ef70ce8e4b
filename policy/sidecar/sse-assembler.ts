// Reads an OpenAI chat-completion SSE stream as it is relayed and rebuilds the assistant message
// (content, tool calls, finish reason) for the turn log. Bounded: hostile streams cost no more than
// a few MB of memory, and anything unparseable is skipped, never thrown.
import { parseJsonBounded } from '../../common/bounded-json.ts';

const maxLineBytes = 4 * 1024 * 1024;
const maxTextChars = 2 * 1024 * 1024;

interface ToolCallDraft {
  id?: string;
  type: string;
  function: { name: string; arguments: string };
}

export interface AssembledMessage {
  role: 'assistant';
  content: string | null;
  tool_calls?: ToolCallDraft[];
}

export class SseAssembler {
  private pending = '';
  private content = '';
  private readonly toolCalls: ToolCallDraft[] = [];
  finishReason: string | null = null;
  usage: unknown;
  events = 0;
  sawDone = false;
  private readonly decoder = new TextDecoder();

  feed(bytes: Uint8Array): void {
    this.pending += this.decoder.decode(bytes, { stream: true });
    let newline: number;
    while ((newline = this.pending.indexOf('\n')) >= 0) {
      const line = this.pending.slice(0, newline).replace(/\r$/, '');
      this.pending = this.pending.slice(newline + 1);
      this.line(line);
    }
    if (this.pending.length > maxLineBytes) this.pending = '';
  }

  private line(line: string): void {
    if (!line.startsWith('data:')) return;
    const data = line.slice(5).trim();
    if (data === '[DONE]') {
      this.sawDone = true;
      return;
    }
    let chunk: {
      choices?: { delta?: { content?: unknown; tool_calls?: unknown }; finish_reason?: unknown }[];
      usage?: unknown;
    };
    try {
      chunk = parseJsonBounded(data) as typeof chunk;
    } catch {
      return;
    }
    this.events += 1;
    if (chunk.usage) this.usage = chunk.usage;
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!choice) return;
    const delta = choice.delta ?? {};
    if (typeof delta.content === 'string' && this.content.length < maxTextChars) this.content += delta.content;
    if (Array.isArray(delta.tool_calls)) {
      for (const raw of delta.tool_calls as {
        index?: unknown;
        id?: unknown;
        type?: unknown;
        function?: { name?: unknown; arguments?: unknown };
      }[]) {
        const index = typeof raw.index === 'number' ? raw.index : this.toolCalls.length;
        if (!Number.isInteger(index) || index < 0 || index >= 64) continue;
        const call = (this.toolCalls[index] ??= { type: 'function', function: { name: '', arguments: '' } });
        if (typeof raw.id === 'string') call.id = raw.id;
        if (typeof raw.function?.name === 'string') call.function.name += raw.function.name;
        if (typeof raw.function?.arguments === 'string' && call.function.arguments.length < maxTextChars)
          call.function.arguments += raw.function.arguments;
      }
    }
    if (typeof choice.finish_reason === 'string') this.finishReason = choice.finish_reason;
  }

  message(): AssembledMessage {
    const calls = this.toolCalls.filter(Boolean);
    return {
      role: 'assistant',
      content: this.content || (calls.length ? null : ''),
      ...(calls.length ? { tool_calls: calls } : {}),
    };
  }
}
