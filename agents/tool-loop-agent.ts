// A small built-in LLM agent: the classic tool loop against the policy endpoint, with one
// `terminal` tool whose commands run as the agent user inside the scenario container. It lets a
// miner check a policy end to end without Hermes; Hermes (a later stage) is the competition agent.
import { agentAccount, type AgentRunRecord, type AgentRunRequest, type ScenarioAgent } from './scenario-agent.ts';

const terminalTool = {
  type: 'function',
  function: {
    name: 'terminal',
    description:
      'Run a shell command in the task environment (bash, working directory /app) and return its output and exit code.',
    parameters: {
      type: 'object',
      properties: { command: { type: 'string', description: 'the shell command to run' } },
      required: ['command'],
    },
  },
};

const systemPrompt =
  'You are an autonomous agent working in a Linux terminal. Complete the task using the terminal tool. When the task is done, reply with a short summary and no tool call.';

interface ToolCall {
  id: string;
  function: { name: string; arguments: string };
}
interface AssistantMessage {
  role: 'assistant';
  content?: string | null;
  tool_calls?: ToolCall[];
}

export class ToolLoopAgent implements ScenarioAgent {
  readonly name = 'loop';

  constructor(
    private readonly options: {
      endpointUrl: string;
      maxTurns?: number;
      commandTimeoutSec?: number;
      maxToolOutputChars?: number;
    },
  ) {}

  async run({ session, task, deadlineMs, onTick, signal }: AgentRunRequest): Promise<AgentRunRecord> {
    const messages: unknown[] = [
      { role: 'system', content: systemPrompt },
      { role: 'user', content: task.instruction },
    ];
    const transcript: string[] = [];
    const maxTurns = this.options.maxTurns ?? 30;
    let timedOut = false;
    for (let turn = 1; turn <= maxTurns; turn++) {
      if (signal?.aborted) break;
      const remainingMs = deadlineMs - performance.now();
      if (remainingMs <= 0) {
        timedOut = true;
        break;
      }
      onTick?.();
      const requestStart = performance.now();
      let assistant: AssistantMessage;
      try {
        const response = await fetch(`${this.options.endpointUrl}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer none' },
          body: JSON.stringify({ model: 'auto', messages, tools: [terminalTool], tool_choice: 'auto' }),
          signal: AbortSignal.any([
            AbortSignal.timeout(Math.max(1, Math.floor(remainingMs))),
            ...(signal ? [signal] : []),
          ]),
        });
        const body = (await response.json()) as {
          choices?: { message?: AssistantMessage }[];
          error?: { message?: string };
        };
        if (!response.ok || !body.choices?.[0]?.message)
          throw new Error(body.error?.message ?? `HTTP ${response.status}`);
        assistant = body.choices[0].message;
      } catch (error) {
        if ((error as Error).name === 'TimeoutError') timedOut = true;
        transcript.push(
          `[turn ${turn}] model request failed after ${Math.round(performance.now() - requestStart)} ms: ${(error as Error).message}`,
        );
        break;
      }
      messages.push({
        role: 'assistant',
        content: assistant.content ?? null,
        ...(assistant.tool_calls?.length ? { tool_calls: assistant.tool_calls } : {}),
      });
      if (assistant.content) transcript.push(`[turn ${turn}] assistant: ${assistant.content}`);
      if (!assistant.tool_calls?.length) break;
      for (const call of assistant.tool_calls) {
        const toolStart = performance.now();
        const result = await this.runTool(call, session, task, deadlineMs, onTick, signal);
        // Turns and timings of the conversation are in the policy host's turn log; this is the agent's side.
        transcript.push(
          `[turn ${turn}] $ ${result.command ?? call.function.arguments.slice(0, 200)} (${Math.round(performance.now() - toolStart)} ms)\n${result.output.slice(0, 2000)}`,
        );
        messages.push({ role: 'tool', tool_call_id: call.id, content: result.output });
        if (result.timedOut) {
          timedOut = true;
          break;
        }
      }
      if (timedOut) break;
    }
    return { exitCode: 0, timedOut, transcript: transcript.join('\n') };
  }

  private async runTool(
    call: ToolCall,
    session: AgentRunRequest['session'],
    task: AgentRunRequest['task'],
    deadlineMs: number,
    onTick: (() => void) | undefined,
    signal?: AbortSignal,
  ) {
    if (call.function.name !== 'terminal')
      return {
        output: `error: unknown tool ${call.function.name}; the only tool is terminal`,
        exitCode: null,
        error: 'unknown_tool',
      };
    let command: string;
    try {
      const args = JSON.parse(call.function.arguments) as { command?: unknown };
      if (typeof args.command !== 'string') throw new Error('command must be a string');
      command = args.command;
    } catch (error) {
      return {
        output: `error: tool arguments are not valid JSON with a "command" string (${(error as Error).message})`,
        exitCode: null,
        error: 'malformed_arguments',
      };
    }
    const limitSec = this.options.commandTimeoutSec ?? 120;
    // `timeout` inside the container ends a slow command without ending the container.
    const result = await session.exec({
      command: ['timeout', '-s', 'KILL', String(limitSec), 'bash', '-lc', command],
      user: agentAccount(task).name,
      workdir: task.workdir,
      env: task.env,
      deadlineMs,
      onTick,
      signal,
      maxOutputBytes: 64 * 1024,
    });
    const limit = this.options.maxToolOutputChars ?? 8000;
    const output =
      `${result.stdout}${result.stderr ? `\n[stderr]\n${result.stderr}` : ''}`.slice(-limit) +
      `\n[exit ${result.exitCode ?? 'killed'}]`;
    return { command, output, exitCode: result.exitCode, timedOut: result.timedOut };
  }
}
