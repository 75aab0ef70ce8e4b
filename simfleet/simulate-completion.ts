// The sim fleet's answer to one chat-completions request, as a pure function of the request body:
// validation, model lookup, context length, injected faults, the reply, max_tokens and usage.
// The HTTP server only adds the waiting and the wire format.
import type { Allowlist, ModelEntry } from '../gateway/catalog/allowlist.ts';
import { decideAgentTurn } from './agent-behaviour.ts';
import { decideRealisticTurn } from './realistic-agent.ts';
import { invalidRequest, SimApiError } from './api-error.ts';
import { canonicalJson, DeterministicRandom, sha256Hex, unitFromParts } from './deterministic-random.ts';
import { answerForJsonObject, answerForSchema } from './json-schema-answer.ts';
import { isJudgeRequest, simulatedJudgement } from './judge-mode.ts';
import { parseChatRequest, requestedMaxTokens, type ChatRequest } from './request-schema.ts';
import type { SimScenario } from './scenario-recognition.ts';
import { countPromptTokens, countTokens, truncateToTokens } from './token-count.ts';
import { competenceScale } from './model-drift.ts';

export const simulatorName = 'trl-sim-fleet';
/** Fixed so that equal requests give byte-identical responses (2026-01-01T00:00:00Z). */
export const simulatedCreated = 1_767_225_600;

/** `fast`: one attempt per model, 2–4 turns (tests that need speed); `realistic`: see simfleet/README.md. */
export type FleetMode = 'fast' | 'realistic';
export const fleetModes: readonly FleetMode[] = ['fast', 'realistic'];

export interface FleetContext {
  allowlist: Allowlist;
  scenarios: readonly SimScenario[];
  /** Default `fast`. */
  mode?: FleetMode;
}

export interface CompletionToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type FinishReason = 'stop' | 'length' | 'tool_calls';

export interface CompletionUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  system_fingerprint: string;
  choices: [
    {
      index: 0;
      message: { role: 'assistant'; content: string | null; refusal: null; tool_calls?: CompletionToolCall[] };
      logprobs: null;
      finish_reason: FinishReason;
    },
  ];
  usage: CompletionUsage;
}

export interface SimulatedCompletion {
  completion: ChatCompletion;
  stream: boolean;
  includeUsage: boolean;
  /** Time to first token, before the server's time scale. */
  latencyMs: number;
  /** Time to generate the completion tokens, before the server's time scale. */
  generationMs: number;
}

export type SimulationResult =
  | { ok: true; value: SimulatedCompletion }
  | { ok: false; error: SimApiError; delayMs: number };

type Reply =
  | { kind: 'text'; content: string }
  | { kind: 'tool_call'; toolName: string; argumentsText: string; content?: string };

function modelNotFound(id: string, allowlist: Allowlist): SimApiError {
  const available = allowlist.models.map((m) => m.id).join(', ');
  return new SimApiError(
    404,
    'invalid_request_error',
    'model_not_found',
    `The model "${id}" does not exist in the sim fleet; available: ${available}`,
    'model',
  );
}

/** Deterministic faults at the profile's rates, keyed by the whole request (seed included). */
function injectedFault(model: ModelEntry, requestKey: string): SimApiError | undefined {
  const roll = unitFromParts('fault', requestKey);
  const { rateLimitRate, serverErrorRate } = model.sim;
  if (roll < rateLimitRate) {
    return new SimApiError(
      429,
      'rate_limit_error',
      'rate_limit_exceeded',
      `Rate limit reached for ${model.id} (simulated by ${simulatorName}).`,
    );
  }
  if (roll < rateLimitRate + serverErrorRate) {
    return unitFromParts('fault-status', requestKey) < 0.5
      ? new SimApiError(
          500,
          'server_error',
          'server_error',
          `The model ${model.id} failed to answer (simulated by ${simulatorName}).`,
        )
      : new SimApiError(
          503,
          'server_error',
          'overloaded',
          `The model ${model.id} is overloaded; retry (simulated by ${simulatorName}).`,
        );
  }
  return undefined;
}

function structuredReply(
  request: ChatRequest,
  model: ModelEntry,
  random: DeterministicRandom,
  scenarios: readonly SimScenario[],
): Reply | undefined {
  const format = request.response_format;
  if (!format || format.type === 'text') return undefined;
  // The pre-evaluation judge gets a judge's answer, not generic schema-valid JSON.
  if (isJudgeRequest(request))
    return { kind: 'text', content: JSON.stringify(simulatedJudgement(request, scenarios, simulatorName)) };
  const value =
    format.type === 'json_schema'
      ? answerForSchema(format.json_schema.schema ?? {}, random)
      : answerForJsonObject(model.id, random);
  return { kind: 'text', content: JSON.stringify(value) };
}

interface BoundedReply {
  content: string | null;
  toolCall?: { name: string; arguments: string };
  completionTokens: number;
  truncated: boolean;
}

/** Cuts the reply to the completion budget (a real model stops mid-text or mid-arguments). */
function boundReply(reply: Reply, maxTokens: number): BoundedReply {
  if (reply.kind === 'tool_call') {
    // Visible text comes first; a budget too small for it is cut there, before any tool call.
    const text = reply.content ?? '';
    const textTokens = countTokens(text);
    if (text !== '' && textTokens >= maxTokens) {
      const content = truncateToTokens(text, maxTokens);
      return { content, completionTokens: countTokens(content), truncated: true };
    }
    const nameTokens = countTokens(reply.toolName);
    const argumentsBudget = maxTokens - textTokens - nameTokens;
    if (argumentsBudget >= 1) {
      const argumentsText = truncateToTokens(reply.argumentsText, argumentsBudget);
      return {
        content: text === '' ? null : text,
        toolCall: { name: reply.toolName, arguments: argumentsText },
        completionTokens: textTokens + nameTokens + countTokens(argumentsText),
        truncated: argumentsText !== reply.argumentsText,
      };
    }
    // Not even the tool name fits: the model is cut off before it says anything.
    return { content: '', completionTokens: 0, truncated: true };
  }
  const content = truncateToTokens(reply.content, maxTokens);
  return { content, completionTokens: countTokens(content), truncated: content !== reply.content };
}

// How the answer is delivered and where it is cut off: not part of what the model "thinks", so streamed
// and non-streamed, capped and uncapped requests get the same content.
const deliveryFields = new Set(['stream', 'stream_options', 'max_tokens', 'max_completion_tokens']);

/** The hash that fixes a request's outcome: the canonical body without delivery fields. */
export function requestKeyOf(body: Record<string, unknown>): string {
  return sha256Hex(canonicalJson(Object.fromEntries(Object.entries(body).filter(([key]) => !deliveryFields.has(key)))));
}

/**
 * `attempt` (1 for a first try) is the caller's retry count (the gateway's `x-trl-attempt` header):
 * each attempt of the same request rolls its own deterministic fault, so a retried 429/503 can
 * succeed and a replay still fails the same way. `countCall` (the server's) returns how many calls to
 * the model came before this one, for a drifting model (simfleet/model-drift.ts).
 */
export function simulateChatCompletion(
  body: unknown,
  context: FleetContext,
  attempt = 1,
  tryKey?: string,
  countCall?: (modelId: string) => number,
): SimulationResult {
  const parsed = parseChatRequest(body);
  if (!parsed.ok) return { ok: false, error: parsed.error, delayMs: 0 };
  const request = parsed.request;
  const model = context.allowlist.models.find((m) => m.id === request.model);
  if (!model) return { ok: false, error: modelNotFound(request.model, context.allowlist), delayMs: 0 };

  const { promptTokens, cachedTokens } = countPromptTokens(request);
  if (promptTokens > model.contextWindow) {
    const error = invalidRequest(
      // OpenAI's wording, type and code: clients (and policies) parse this exact shape.
      `This model's maximum context length is ${model.contextWindow} tokens. However, your messages resulted in ${promptTokens} tokens. Please reduce the length of the messages.`,
      'messages',
      'context_length_exceeded',
    );
    return { ok: false, error, delayMs: 0 };
  }

  const requestKey = requestKeyOf(body as Record<string, unknown>);
  const callsBefore = model.sim.drift ? (countCall?.(model.id) ?? 0) : 0;
  // Faults are transient: each attempt of each try of a scenario rolls its own (the reply itself
  // stays a function of the request and the seed).
  const faultKey = `${requestKey}${tryKey ? `#try-${tryKey}` : ''}${attempt > 1 ? `#attempt-${attempt}` : ''}`;
  const fault = injectedFault(model, faultKey);
  if (fault) return { ok: false, error: fault, delayMs: fault.status >= 500 ? model.sim.latencyMs : 0 };

  const random = new DeterministicRandom(requestKey);
  const seed = request.seed ?? 0;
  const reply: Reply =
    structuredReply(request, model, random.derive('json'), context.scenarios) ??
    (context.mode === 'realistic' ? decideRealisticTurn : decideAgentTurn)({
      request,
      model,
      models: context.allowlist.models,
      scenarios: context.scenarios,
      seed,
      requestKey,
      competenceScale: competenceScale(model.sim.drift, callsBefore),
    });
  const maxTokens = Math.min(requestedMaxTokens(request) ?? model.maxOutputTokens, model.maxOutputTokens);
  const bounded = boundReply(reply, maxTokens);

  const message: ChatCompletion['choices'][0]['message'] = {
    role: 'assistant',
    content: bounded.content,
    refusal: null,
  };
  if (bounded.toolCall)
    message.tool_calls = [{ id: `call_${random.hex(24)}`, type: 'function', function: bounded.toolCall }];
  const finishReason: FinishReason = bounded.truncated ? 'length' : bounded.toolCall ? 'tool_calls' : 'stop';
  const completion: ChatCompletion = {
    id: `chatcmpl-${requestKey.slice(0, 24)}`,
    object: 'chat.completion',
    created: simulatedCreated,
    model: model.id,
    system_fingerprint: simulatorName,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: bounded.completionTokens,
      total_tokens: promptTokens + bounded.completionTokens,
      prompt_tokens_details: { cached_tokens: cachedTokens },
      completion_tokens_details: { reasoning_tokens: 0 },
    },
  };
  return {
    ok: true,
    value: {
      completion,
      stream: request.stream === true,
      includeUsage: request.stream_options?.include_usage === true,
      latencyMs: model.sim.latencyMs,
      generationMs: (bounded.completionTokens / model.sim.tokensPerSecond) * 1000,
    },
  };
}
