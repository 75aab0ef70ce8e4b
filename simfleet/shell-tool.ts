// Finding the tool that runs shell commands among an agent's tools: a function whose JSON-schema
// parameters have a string property `command` (Hermes calls it `terminal`).
import type { ChatRequest, ToolDefinition } from './request-schema.ts';

const preferredNames = [
  'terminal',
  'shell',
  'bash',
  'run_command',
  'run_shell_command',
  'execute_command',
  'run_terminal_command',
  'exec',
];

function hasStringCommand(tool: ToolDefinition): boolean {
  const parameters = tool.function.parameters;
  const properties = parameters?.['properties'];
  if (!properties || typeof properties !== 'object') return false;
  const command = (properties as Record<string, unknown>)['command'];
  if (!command || typeof command !== 'object') return false;
  const type = (command as Record<string, unknown>)['type'];
  return type === 'string' || (Array.isArray(type) && type.includes('string'));
}

function preference(name: string): number {
  const lower = name.toLowerCase();
  const exact = preferredNames.indexOf(lower);
  if (exact >= 0) return exact;
  const partial = preferredNames.findIndex((preferred) => lower.includes(preferred));
  return partial >= 0 ? preferredNames.length + partial : 2 * preferredNames.length;
}

/** The name of the shell tool to call, or undefined when the request offers none (or forbids tools). */
export function findShellTool(request: Pick<ChatRequest, 'tools' | 'tool_choice'>): string | undefined {
  const choice = request.tool_choice;
  if (choice === 'none') return undefined;
  const candidates = (request.tools ?? []).filter(hasStringCommand);
  if (choice && typeof choice === 'object')
    return candidates.find((t) => t.function.name === choice.function.name)?.function.name;
  // Stable: the most shell-like name, ties kept in the client's order.
  const ranked = candidates
    .map((tool, index) => ({ tool, index }))
    .sort((a, b) => preference(a.tool.function.name) - preference(b.tool.function.name) || a.index - b.index);
  return ranked[0]?.tool.function.name;
}
