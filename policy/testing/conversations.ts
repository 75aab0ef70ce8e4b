// Agent conversations for policy tests: a system prompt, the task, and tool-call turns with results.
import type { ChatCompletionRequest, ChatMessage, FunctionTool } from '../sdk/index.ts';

export const agentTools: FunctionTool[] = [
  {
    type: 'function',
    function: {
      name: 'terminal',
      description: 'Run a shell command',
      parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    },
  },
  {
    type: 'function',
    function: {
      name: 'read_file',
      description: 'Read a file',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
  },
  {
    type: 'function',
    function: {
      name: 'write_file',
      description: 'Write a file',
      parameters: {
        type: 'object',
        properties: { path: { type: 'string' }, content: { type: 'string' } },
        required: ['path', 'content'],
      },
    },
  },
];

export type Turn = { tool: string; args: Record<string, unknown>; result: string };

export function conversation(instruction: string, turns: Turn[] = []): ChatCompletionRequest {
  const messages: ChatMessage[] = [
    {
      role: 'system',
      content: 'You are a coding agent working in a Linux container. Use the tools to complete the task.',
    },
    { role: 'user', content: instruction },
  ];
  turns.forEach((turn, index) => {
    const id = `call_${index}`;
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name: turn.tool, arguments: JSON.stringify(turn.args) } }],
    });
    messages.push({ role: 'tool', tool_call_id: id, content: turn.result });
  });
  return { model: 'agent-default', messages, tools: agentTools, tool_choice: 'auto', max_tokens: 8192 };
}

export const failingTurn = (command: string): Turn => ({
  tool: 'terminal',
  args: { command },
  result: `bash: ${command.split(' ')[0]}: command not found\nexit code: 127`,
});
export const okTurn = (command: string, output = 'ok'): Turn => ({
  tool: 'terminal',
  args: { command },
  result: output,
});
