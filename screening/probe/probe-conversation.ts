// One probe conversation, played as Hermes would open it: the Hermes system prompt and tools, the
// scenario's instruction as the user's message, then up to `maxTurns` requests in which every tool
// call the policy returned is answered with a plausible result drawn from the scenario's own
// environment (a listing of its files, the head of the file the call names): the files of its built image
// when the worker has it (probe-environment.ts). Streamed, as Hermes asks.
import OpenAI from 'openai';
import { answerParts } from '../../gateway/provenance/answer-parts.ts';
import type { HermesOpening } from '../../agents/hermes-opening.ts';
import type { EnvironmentFile } from './image-files.ts';

export interface ProbeScenario {
  name: string;
  instruction: string;
  /** Files the agent would see (the scenario image's, else environment/ without the Dockerfile), with their heads. */
  environmentFiles: EnvironmentFile[];
}

export interface ConversationRecord {
  turns: number;
  /** Everything the probe sent the policy, as text: what the policy may legitimately repeat. */
  sentText: string;
  /** Why the conversation ended early (an error from the policy), if it did. */
  error?: string;
}

function listing(scenario: ProbeScenario): string {
  return [
    'total ' + scenario.environmentFiles.length,
    ...scenario.environmentFiles.map(
      (file) => `-rw-r--r-- 1 agent agent ${file.size ?? file.head.length} ${file.name}`,
    ),
  ].join('\n');
}

/**
 * A plausible result for one tool call: the head of the file it names (by path or base name), a
 * listing for the conversation's first call or a call that names no file, else the next file's head.
 */
function toolResult(scenario: ProbeScenario, call: { arguments: string }, served: number): string {
  const files = scenario.environmentFiles;
  const named = files.find(
    (file) => call.arguments.includes(file.name) || call.arguments.includes(file.name.split('/').pop()!),
  );
  if (named) return named.head;
  if (served === 0 || /\bls\b|"path"\s*:\s*"\.?\/?"/.test(call.arguments) || files.length === 0)
    return listing(scenario);
  return files[(served - 1) % files.length]!.head;
}

export async function playConversation(
  endpointUrl: string,
  scenario: ProbeScenario,
  opening: HermesOpening,
  options: { maxTurns: number; requestTimeoutMs: number; signal?: AbortSignal },
): Promise<ConversationRecord> {
  const client = new OpenAI({
    baseURL: endpointUrl,
    apiKey: 'not-a-secret',
    maxRetries: 0,
    timeout: options.requestTimeoutMs,
  });
  const messages: Record<string, unknown>[] = [
    { role: 'system', content: opening.system },
    { role: 'user', content: scenario.instruction },
  ];
  const sent: string[] = [opening.system, scenario.instruction, JSON.stringify(opening.tools)];
  let turns = 0;
  let served = 0;
  try {
    while (turns < options.maxTurns) {
      turns += 1;
      const stream = await client.chat.completions.create(
        {
          model: 'auto',
          messages: messages as never,
          tools: opening.tools as never,
          stream: true,
          stream_options: { include_usage: true },
        },
        { signal: options.signal },
      );
      const chunks: unknown[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      const answer = answerParts(chunks)[0] ?? { text: '', toolCalls: [] };
      const toolCalls = answer.toolCalls.map((call, i) => ({
        id: `call_${turns}_${i}`,
        type: 'function',
        function: call,
      }));
      messages.push({
        role: 'assistant',
        content: answer.text || null,
        ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
      });
      if (toolCalls.length === 0) break;
      toolCalls.forEach((call) => {
        const result = toolResult(scenario, call.function, served++);
        sent.push(result);
        messages.push({ role: 'tool', tool_call_id: call.id, content: result });
      });
    }
    return { turns, sentText: sent.join('\n') };
  } catch (error) {
    return { turns, sentText: sent.join('\n'), error: (error as Error).message.slice(0, 300) };
  }
}
