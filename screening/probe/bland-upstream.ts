// The probe's upstream: an OpenAI client whose fetch answers every call itself, at $0 (zero-token
// usage), with bland text that belongs to no scenario and, when the request offers tools, one
// harmless tool call. Whatever the policy passes on to the agent should come from these answers;
// whatever the policy sends here is kept (bounded) to be searched for scenario content.
import OpenAI from 'openai';

/** What the policy sent, as text: every message's content and tool-call arguments. Bounded. */
export interface SentRequests {
  count: number;
  text: string;
}

const maxKeptChars = 2 * 1024 * 1024;
const freeUsage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
const blandText = 'I will start by looking at what is in the working directory, then decide on the next step.';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function messagesText(body: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    if (!isRecord(message)) continue;
    if (typeof message.content === 'string') parts.push(message.content);
    else if (Array.isArray(message.content))
      for (const part of message.content) if (isRecord(part) && typeof part.text === 'string') parts.push(part.text);
    for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
      if (isRecord(call) && isRecord(call.function) && typeof call.function.arguments === 'string')
        parts.push(call.function.arguments);
    }
  }
  return parts.join('\n');
}

/** The bland tool call: a directory listing with the terminal tool, else the first tool with no arguments. */
function blandToolCall(body: Record<string, unknown>, id: string) {
  const tools = (Array.isArray(body.tools) ? body.tools : [])
    .filter(isRecord)
    .map((tool) => (isRecord(tool.function) ? String(tool.function.name ?? '') : ''))
    .filter(Boolean);
  if (tools.length === 0) return undefined;
  const name = tools.includes('terminal') ? 'terminal' : tools[0]!;
  return {
    id,
    type: 'function' as const,
    function: { name, arguments: name === 'terminal' ? JSON.stringify({ command: 'ls -la' }) : '{}' },
  };
}

export function createBlandUpstream(): { client: OpenAI; sent(): SentRequests } {
  let count = 0;
  const kept: string[] = [];
  let keptChars = 0;
  const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(String(init?.body ?? '{}'));
      body = isRecord(parsed) ? parsed : {};
    } catch {
      return Response.json(
        { error: { type: 'invalid_request_error', message: 'the body is not JSON' } },
        { status: 400 },
      );
    }
    count += 1;
    const text = messagesText(body);
    if (keptChars < maxKeptChars) {
      kept.push(text.slice(0, maxKeptChars - keptChars));
      keptChars += Math.min(text.length, maxKeptChars - keptChars);
    }
    const id = `probe-${count}`;
    const model = String(body.model ?? 'unknown');
    const toolCall = blandToolCall(body, `call_${id}`);
    const answers = Math.min(8, Math.max(1, typeof body.n === 'number' ? Math.floor(body.n) : 1));
    const message = { role: 'assistant', content: blandText, ...(toolCall ? { tool_calls: [toolCall] } : {}) };
    if (body.stream === true) {
      const chunks: unknown[] = [];
      for (let index = 0; index < answers; index++) {
        chunks.push({
          id,
          object: 'chat.completion.chunk',
          created: 0,
          model,
          choices: [{ index, delta: { role: 'assistant', content: blandText }, finish_reason: null }],
        });
        if (toolCall)
          chunks.push({
            id,
            object: 'chat.completion.chunk',
            created: 0,
            model,
            choices: [{ index, delta: { tool_calls: [{ index: 0, ...toolCall }] }, finish_reason: null }],
          });
        chunks.push({
          id,
          object: 'chat.completion.chunk',
          created: 0,
          model,
          choices: [{ index, delta: {}, finish_reason: toolCall ? 'tool_calls' : 'stop' }],
        });
      }
      chunks.push({ id, object: 'chat.completion.chunk', created: 0, model, choices: [], usage: freeUsage });
      const sse = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + 'data: [DONE]\n\n';
      return new Response(sse, { status: 200, headers: { 'content-type': 'text/event-stream', 'x-request-id': id } });
    }
    const choices = Array.from({ length: answers }, (_, index) => ({
      index,
      message,
      finish_reason: toolCall ? 'tool_calls' : 'stop',
    }));
    return Response.json(
      { id, object: 'chat.completion', created: 0, model, choices, usage: freeUsage },
      { status: 200, headers: { 'x-request-id': id } },
    );
  };
  const client = new OpenAI({
    baseURL: 'http://probe.invalid/v1',
    apiKey: 'the-probe-needs-no-key',
    maxRetries: 0,
    fetch: fetch as never,
  });
  return { client, sent: () => ({ count, text: kept.join('\n') }) };
}
