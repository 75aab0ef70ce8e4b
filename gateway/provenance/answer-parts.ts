// The parts of a chat message that provenance compares: its text and its tool calls. Model answers
// come as a completion (one message per choice) or as the chunks of a stream (folded per choice);
// what the agent received is one assistant message. Anything malformed yields no parts.

export interface MessageParts {
  text: string;
  toolCalls: { name: string; arguments: string }[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Text of a content field: a string, or OpenAI content parts of type text. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('');
}

function toolCallsOf(value: unknown): MessageParts['toolCalls'] {
  if (!Array.isArray(value)) return [];
  const calls: MessageParts['toolCalls'] = [];
  for (const call of value) {
    const fn = isRecord(call) && isRecord(call.function) ? call.function : undefined;
    if (fn)
      calls.push({
        name: typeof fn.name === 'string' ? fn.name : '',
        arguments: typeof fn.arguments === 'string' ? fn.arguments : '',
      });
  }
  return calls;
}

/** One assistant message (what the agent received). */
export function messageParts(message: unknown): MessageParts {
  if (!isRecord(message)) return { text: '', toolCalls: [] };
  return { text: contentText(message.content), toolCalls: toolCallsOf(message.tool_calls) };
}

/** Every answer of a model response: a completion's choices, or a stream's chunks folded by choice index. */
export function answerParts(response: unknown): MessageParts[] {
  if (isRecord(response) && Array.isArray(response.choices)) {
    return response.choices.map((choice) => messageParts(isRecord(choice) ? choice.message : undefined));
  }
  if (!Array.isArray(response)) return [];
  const byChoice = new Map<number, { text: string[]; calls: Map<number, { name: string; arguments: string[] }> }>();
  for (const chunk of response) {
    if (!isRecord(chunk) || !Array.isArray(chunk.choices)) continue;
    for (const choice of chunk.choices) {
      if (!isRecord(choice) || !isRecord(choice.delta)) continue;
      const index = typeof choice.index === 'number' ? choice.index : 0;
      let answer = byChoice.get(index);
      if (!answer) byChoice.set(index, (answer = { text: [], calls: new Map() }));
      const delta = choice.delta;
      if (typeof delta.content === 'string') answer.text.push(delta.content);
      if (!Array.isArray(delta.tool_calls)) continue;
      for (const call of delta.tool_calls) {
        if (!isRecord(call)) continue;
        const callIndex = typeof call.index === 'number' ? call.index : 0;
        let folded = answer.calls.get(callIndex);
        if (!folded) answer.calls.set(callIndex, (folded = { name: '', arguments: [] }));
        const fn = isRecord(call.function) ? call.function : {};
        if (typeof fn.name === 'string') folded.name += fn.name;
        if (typeof fn.arguments === 'string') folded.arguments.push(fn.arguments);
      }
    }
  }
  return [...byChoice.values()].map((answer) => ({
    text: answer.text.join(''),
    toolCalls: [...answer.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) => ({ name: call.name, arguments: call.arguments.join('') })),
  }));
}
