// Shared by the sim fleet's tests: the real allowlist and scenarios, and Hermes-like agent requests.
import { loadAllowlist, type Allowlist, type ModelEntry } from '../../gateway/catalog/allowlist.ts';
import type { ChatMessage, ToolDefinition } from '../request-schema.ts';
import { loadSimScenarios, type SimScenario } from '../scenario-recognition.ts';

export const allowlist = loadAllowlist();
export const scenarios = await loadSimScenarios();

/** The allowlist with fault injection off, for tests about everything else. */
export function withoutFaults(list: Allowlist = allowlist): Allowlist {
  return {
    ...list,
    models: list.models.map((m) => ({ ...m, sim: { ...m.sim, rateLimitRate: 0, serverErrorRate: 0 } })),
  };
}

export function model(id: string): ModelEntry {
  const found = allowlist.models.find((m) => m.id === id);
  if (!found) throw new Error(`no model ${id} in the allowlist`);
  return found;
}

export function scenario(name: string): SimScenario {
  const found = scenarios.find((s) => s.name === name);
  if (!found) throw new Error(`no scenario ${name}`);
  return found;
}

/** Tools shaped like Hermes' (terminal takes a command). */
export const hermesTools: ToolDefinition[] = [
  {
    type: 'function',
    function: {
      name: 'terminal',
      description: 'Run a shell command in the sandbox.',
      parameters: {
        type: 'object',
        properties: { command: { type: 'string' }, background: { type: 'boolean' }, timeout: { type: 'integer' } },
        required: ['command'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'read_file',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
  },
];

/** The opening of an agent conversation about a scenario, as Hermes sends it. */
export function agentStart(target: SimScenario): ChatMessage[] {
  return [
    { role: 'system', content: 'You are Hermes, an autonomous agent. Use the terminal tool to act.' },
    { role: 'user', content: `${target.normalisedInstruction}\n\nWork in /app.` },
  ];
}

/** The conversation after the assistant's tool call and the tool's (pretend) result. */
export function afterToolCall(
  messages: ChatMessage[],
  call: { id: string; function: { name: string; arguments: string } },
  output = 'exit 0',
): ChatMessage[] {
  return [
    ...messages,
    { role: 'assistant', content: null, tool_calls: [{ id: call.id, type: 'function', function: call.function }] },
    { role: 'tool', tool_call_id: call.id, content: output },
  ];
}
