// A scenario's agent conversation, with the model calls behind every turn, in formats training
// pipelines read (`trl export`). One record per scenario, one JSON object per line:
// - `jsonl`: ours, lossless: the messages as the agent saw them and each turn with its model calls;
// - `atif`: the Agent Trajectory Interchange Format (Harbor's RFC 0001, ATIF-v1.4 fields):
//   steps of source system / user / agent; an agent step carries the answer, its tool_calls
//   (tool_call_id, function_name, arguments), the tool results of the next request as its
//   observation (results: source_call_id, content), per-step metrics (prompt_tokens,
//   completion_tokens, cached_tokens, cost_usd) and which model(s) answered; final_metrics totals;
// - `sharegpt`: LLaMA-Factory's ShareGPT with tools: `system`, `tools` (JSON text), and
//   `conversations` of from human / gpt / function_call / observation.
// Fields of ours beyond a format's own go under `extra` (ATIF) or `metadata` (ShareGPT).
import { textOf, type ChatMessage, type JoinedTurn, type ModelCall } from './joined-turns.ts';

export const exportFormats = ['atif', 'sharegpt', 'jsonl'] as const;
export type ExportFormat = (typeof exportFormats)[number];

export const atifSchemaVersion = 'ATIF-v1.4';

/** What a record says about the run and the scenario besides the conversation. */
export interface TrajectoryContext {
  workflowId: string;
  submissionId: string;
  packHash?: string;
  agent: string;
  agentVersion?: string;
  manifestHash?: string;
  scenario: string;
  status: string;
  testsPassed: number;
  testsTotal: number;
  costUsd: number;
  /** Tool definitions the agent offered, when the call log kept them. */
  tools?: unknown[];
}

export interface ScenarioTrajectory {
  context: TrajectoryContext;
  turns: JoinedTurn[];
}

/** The conversation as the agent last saw it: every request's new messages, then the last answer. */
export function conversationMessages(turns: readonly JoinedTurn[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const turn of turns) messages.push(...turn.newMessages);
  const last = turns.at(-1)?.response;
  if (last) messages.push(last);
  return messages;
}

function callSummary(call: ModelCall): Record<string, unknown> {
  return {
    call_id: call.callId,
    model: call.model,
    status: call.status,
    ...(call.errorType ? { error_type: call.errorType } : {}),
    ...(call.branch ? { branch: call.branch } : {}),
    prompt_tokens: call.promptTokens,
    cached_tokens: call.cachedPromptTokens,
    completion_tokens: call.completionTokens,
    cost_usd: call.costUsd,
    latency_ms: call.latencyMs,
    ...(call.startedAt ? { started_at: call.startedAt } : {}),
  };
}

function contextFields(context: TrajectoryContext): Record<string, unknown> {
  return {
    workflow_id: context.workflowId,
    submission_id: context.submissionId,
    pack_hash: context.packHash,
    scenario: context.scenario,
    status: context.status,
    tests_passed: context.testsPassed,
    tests_total: context.testsTotal,
    cost_usd: context.costUsd,
    ...(context.manifestHash ? { manifest_hash: context.manifestHash } : {}),
  };
}

function jsonlRecord({ context, turns }: ScenarioTrajectory): Record<string, unknown> {
  return {
    ...contextFields(context),
    agent: context.agent,
    ...(context.tools ? { tools: context.tools } : {}),
    messages: conversationMessages(turns),
    turns: turns.map((turn) => ({
      turn: turn.turn,
      request_id: turn.requestId,
      latency_ms: turn.latencyMs,
      new_messages: turn.newMessages,
      ...(turn.newMessagesOmitted ? { new_messages_omitted: turn.newMessagesOmitted } : {}),
      response: turn.response ?? null,
      ...(turn.error ? { error: turn.error } : {}),
      model_calls: turn.calls.map(callSummary),
    })),
  };
}

function parsedArguments(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  } catch {
    // Arguments a model wrote that are not JSON stay as they were.
    return { raw: text };
  }
}

/** The distinct models whose answers were accepted for a turn, `a+b` when several (ensembles). */
function answeringModels(calls: readonly ModelCall[]): string | undefined {
  const models = [...new Set(calls.filter((c) => c.status === 'ok').map((c) => c.model))];
  return models.length ? models.join('+') : undefined;
}

function atifRecord({ context, turns }: ScenarioTrajectory): Record<string, unknown> {
  type Step = Record<string, unknown> & { step_id: number };
  const steps: Step[] = [];
  let lastAgentStep: Step | undefined;
  const add = (step: Omit<Step, 'step_id'>): Step => {
    const full = { step_id: steps.length + 1, ...step } as Step;
    steps.push(full);
    return full;
  };
  const totals = { prompt: 0, completion: 0, cached: 0, cost: 0 };
  for (const turn of turns) {
    for (const message of turn.newMessages) {
      if (message.role === 'tool') {
        // A tool result belongs to the agent step that asked for it.
        const result = { source_call_id: message.tool_call_id, content: textOf(message.content) };
        if (lastAgentStep) {
          const observation = (lastAgentStep.observation ??= { results: [] }) as { results: unknown[] };
          observation.results.push(result);
        } else add({ source: 'user', message: result.content, extra: { tool_call_id: message.tool_call_id } });
      } else if (message.role === 'assistant') {
        // The previous answer, sent back by the agent: already a step, unless the agent wrote it itself.
        if (!lastAgentStep)
          add({ source: 'agent', message: textOf(message.content), extra: { not_from_a_model_call: true } });
      } else {
        add({ source: message.role === 'system' ? 'system' : 'user', message: textOf(message.content) });
      }
    }
    if (turn.newMessagesOmitted) add({ source: 'user', message: '', extra: { omitted: turn.newMessagesOmitted } });
    const metrics = {
      prompt_tokens: turn.calls.reduce((t, c) => t + c.promptTokens, 0),
      completion_tokens: turn.calls.reduce((t, c) => t + c.completionTokens, 0),
      cached_tokens: turn.calls.reduce((t, c) => t + c.cachedPromptTokens, 0),
      cost_usd: Math.round(turn.calls.reduce((t, c) => t + c.costUsd, 0) * 1e8) / 1e8,
    };
    totals.prompt += metrics.prompt_tokens;
    totals.completion += metrics.completion_tokens;
    totals.cached += metrics.cached_tokens;
    totals.cost += metrics.cost_usd;
    const response = turn.response;
    const toolCalls = (response?.tool_calls ?? []).map((call) => ({
      tool_call_id: call.id,
      function_name: call.function?.name,
      arguments: parsedArguments(call.function?.arguments),
    }));
    const model = answeringModels(turn.calls);
    lastAgentStep = add({
      source: 'agent',
      ...(turn.calls[0]?.startedAt ? { timestamp: turn.calls[0].startedAt } : {}),
      ...(model ? { model_name: model } : {}),
      message: response ? textOf(response.content) : '',
      ...(typeof response?.reasoning_content === 'string' ? { reasoning_content: response.reasoning_content } : {}),
      ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
      metrics,
      extra: {
        turn: turn.turn,
        request_id: turn.requestId,
        latency_ms: turn.latencyMs,
        model_calls: turn.calls.map(callSummary),
        ...(turn.error ? { error: turn.error } : {}),
      },
    });
  }
  return {
    schema_version: atifSchemaVersion,
    session_id: `${context.workflowId}/${context.scenario}`,
    agent: {
      name: context.agent,
      version: context.agentVersion ?? 'unknown',
      model_name: 'auto',
      extra: { policy_pack: context.packHash, ...(context.tools ? { tool_definitions: context.tools } : {}) },
    },
    steps,
    final_metrics: {
      total_prompt_tokens: totals.prompt,
      total_completion_tokens: totals.completion,
      total_cached_tokens: totals.cached,
      total_cost_usd: Math.round(totals.cost * 1e8) / 1e8,
      total_steps: steps.length,
    },
    extra: contextFields(context),
  };
}

function sharegptRecord({ context, turns }: ScenarioTrajectory): Record<string, unknown> {
  const system: string[] = [];
  const conversations: { from: string; value: string }[] = [];
  for (const message of conversationMessages(turns)) {
    const text = textOf(message.content);
    if (message.role === 'system') system.push(text);
    else if (message.role === 'tool') conversations.push({ from: 'observation', value: text });
    else if (message.role === 'assistant') {
      if (text) conversations.push({ from: 'gpt', value: text });
      const calls = (message.tool_calls ?? []).map((call) => ({
        name: call.function?.name,
        arguments: parsedArguments(call.function?.arguments),
      }));
      if (calls.length)
        conversations.push({ from: 'function_call', value: JSON.stringify(calls.length === 1 ? calls[0] : calls) });
    } else conversations.push({ from: 'human', value: text });
  }
  return {
    id: `${context.workflowId}/${context.scenario}`,
    ...(system.length ? { system: system.join('\n\n') } : {}),
    ...(context.tools ? { tools: JSON.stringify(context.tools) } : {}),
    conversations,
    metadata: {
      ...contextFields(context),
      agent: context.agent,
      // Which model answered each assistant turn, in order.
      turns: turns.map((turn) => ({
        turn: turn.turn,
        request_id: turn.requestId,
        models: turn.calls.map((c) => c.model),
        cost_usd: turn.calls.reduce((t, c) => t + c.costUsd, 0),
      })),
    },
  };
}

export function trajectoryRecord(format: ExportFormat, trajectory: ScenarioTrajectory): Record<string, unknown> {
  switch (format) {
    case 'atif':
      return atifRecord(trajectory);
    case 'sharegpt':
      return sharegptRecord(trajectory);
    case 'jsonl':
      return jsonlRecord(trajectory);
  }
}
