// The agent's side of the Python SDK tests: chat requests to a policy, SSE read back as chunks and
// assembled into one message, and conversations whose first five messages name a session.
export interface ChatReply {
  status: number;
  body: any;
  chunks: any[];
  sawDone: boolean;
  message: { content: string; toolCalls: { id?: string; name: string; arguments: string }[] };
}

export async function chat(baseUrl: string, body: Record<string, unknown>): Promise<ChatReply> {
  const response = await fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ model: 'auto', ...body }),
  });
  const text = await response.text();
  const isStream = (response.headers.get('content-type') ?? '').includes('text/event-stream');
  if (!isStream) {
    const parsed = text ? JSON.parse(text) : undefined;
    const message = parsed?.choices?.[0]?.message ?? {};
    return {
      status: response.status,
      body: parsed,
      chunks: [],
      sawDone: false,
      message: {
        content: message.content ?? '',
        toolCalls: (message.tool_calls ?? []).map((c: any) => ({
          id: c.id,
          name: c.function.name,
          arguments: c.function.arguments,
        })),
      },
    };
  }
  const chunks: any[] = [];
  let sawDone = false;
  for (const line of text.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '[DONE]') {
      sawDone = true;
      continue;
    }
    chunks.push(JSON.parse(data));
  }
  let content = '';
  const calls = new Map<number, { id?: string; name: string; arguments: string }>();
  for (const chunk of chunks) {
    for (const choice of chunk.choices ?? []) {
      const delta = choice.delta ?? {};
      if (typeof delta.content === 'string') content += delta.content;
      for (const part of delta.tool_calls ?? []) {
        const call = calls.get(part.index) ?? { name: '', arguments: '' };
        if (part.id) call.id = part.id;
        call.name += part.function?.name ?? '';
        call.arguments += part.function?.arguments ?? '';
        calls.set(part.index, call);
      }
    }
  }
  return {
    status: response.status,
    body: undefined,
    chunks,
    sawDone,
    message: { content, toolCalls: [...calls.values()] },
  };
}

const okToolResult = '{"output": "done", "exit_code": 0, "error": null}';
export const failingToolResult = '{"output": "bash: make: command not found", "exit_code": 127, "error": null}';

/** Five opening messages like Hermes sends (system, task, a tool call and two tool results); `tag`
 * makes the fifth one, and so the session, distinct. */
export function sessionHead(tag: string): any[] {
  return [
    { role: 'system', content: 'You are an agent working in a terminal.' },
    { role: 'user', content: 'Do the task.' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c0', type: 'function', function: { name: 'read_file', arguments: '{"path":"SKILL.md"}' } }],
    },
    { role: 'tool', tool_call_id: 'c0', content: '# Skill' },
    { role: 'tool', tool_call_id: 'c0', content: `instruction ${tag}` },
  ];
}

let callNumber = 0;
/** An assistant tool call and its result (failing or not). */
export function toolTurn(command: string, failing: boolean): any[] {
  const id = `c${++callNumber}`;
  return [
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name: 'terminal', arguments: JSON.stringify({ command }) } }],
    },
    { role: 'tool', tool_call_id: id, content: failing ? failingToolResult : okToolResult },
  ];
}
