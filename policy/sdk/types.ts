// The shapes a policy sees: OpenAI chat-completions bodies in and out, and the context the
// runner hands to `complete`. Plain types only (no runtime code), so the file can be copied as is.

// ── Messages ────────────────────────────────────────────────────────────────────────────────

export type TextContentPart = { type: 'text'; text: string };
export type ImageContentPart = { type: 'image_url'; image_url: { url: string; detail?: 'auto' | 'low' | 'high' } };
export type ContentPart = TextContentPart | ImageContentPart | { type: string; [key: string]: unknown };

/** Text or an array of parts; the agent mostly sends plain strings. */
export type MessageContent = string | ContentPart[];

export type ToolCall = {
  id: string;
  type: 'function';
  /** `arguments` is a JSON string produced by the model; it may be malformed. */
  function: { name: string; arguments: string };
};

export type SystemMessage = { role: 'system'; content: MessageContent; name?: string };
export type DeveloperMessage = { role: 'developer'; content: MessageContent; name?: string };
export type UserMessage = { role: 'user'; content: MessageContent; name?: string };
export type AssistantMessage = {
  role: 'assistant';
  content?: MessageContent | null;
  tool_calls?: ToolCall[];
  refusal?: string | null;
  /** Some models return their chain of thought here; it is not sent back to the user. */
  reasoning_content?: string | null;
  name?: string;
};
export type ToolMessage = { role: 'tool'; content: MessageContent; tool_call_id: string; name?: string };

export type ChatMessage = SystemMessage | DeveloperMessage | UserMessage | AssistantMessage | ToolMessage;
export type ChatRole = ChatMessage['role'];

// ── Request ─────────────────────────────────────────────────────────────────────────────────

export type JsonSchema = { [key: string]: unknown };

export type FunctionTool = {
  type: 'function';
  function: { name: string; description?: string; parameters?: JsonSchema; strict?: boolean };
};

export type ToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; json_schema: { name: string; description?: string; schema?: JsonSchema; strict?: boolean } };

/** An OpenAI chat-completions request body, as the agent sends it. `model` is the agent's wish; the policy decides. */
export type ChatCompletionRequest = {
  model?: string;
  messages: ChatMessage[];
  tools?: FunctionTool[];
  tool_choice?: ToolChoice;
  parallel_tool_calls?: boolean;
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  top_p?: number;
  n?: number;
  stop?: string | string[];
  presence_penalty?: number;
  frequency_penalty?: number;
  seed?: number;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  response_format?: ResponseFormat;
  reasoning_effort?: 'minimal' | 'low' | 'medium' | 'high';
  user?: string;
  metadata?: Record<string, string>;
  [extra: string]: unknown;
};

// ── Response ────────────────────────────────────────────────────────────────────────────────

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

export type ChatCompletionChoice = {
  index: number;
  message: AssistantMessage;
  finish_reason: FinishReason | null;
  logprobs?: unknown;
};

export type Usage = {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number };
};

export type ChatCompletion = {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: ChatCompletionChoice[];
  usage?: Usage;
  system_fingerprint?: string;
  [extra: string]: unknown;
};

// ── Context ─────────────────────────────────────────────────────────────────────────────────

/** One allowlisted model with its prices (USD per 1M tokens) and limits. */
export type ModelInfo = {
  id: string;
  inputUsdPerMillion: number;
  cachedInputUsdPerMillion: number;
  outputUsdPerMillion: number;
  contextWindow: number;
  maxOutputTokens: number;
  supportsTools: boolean;
};

/** The scenario's model budget as the host last reported it. */
export type BudgetView = { capUsd: number; spentUsd: number; remainingUsd: number };

export type CallOptions = {
  /** Upper bound on completion tokens; the gateway reserves this much output against the budget. */
  maxTokens?: number;
  /** A label for the trace, e.g. which arm of a fan-out made the call. */
  branch?: string;
};

/** OpenAI-style error types a call may fail with. */
export type CallErrorType =
  /** HTTP 402: the call does not fit what remains of the cap, or the episode closed after an overshoot. */
  | 'cap'
  | 'model_not_allowed'
  | 'rate_limited'
  | 'upstream_error'
  | 'upstream_timeout'
  /** The upstream refused the validator's key or account (401/402/403): try another model. */
  | 'upstream_unavailable'
  | 'context_length_exceeded'
  | 'invalid_request'
  | (string & {});

export type PolicyContext = {
  /** A metered model call; rejects with a PolicyCallError. Calls may run in parallel. */
  call(model: string, request: ChatCompletionRequest, options?: CallOptions): Promise<ChatCompletion>;
  /** The allowlist: ids, prices and limits. */
  models: ModelInfo[];
  /** Always the latest figures the host sent (refreshed after every call). */
  readonly budget: BudgetView;
  /** Goes to the trace; bounded per request. */
  log(...values: unknown[]): void;
};

export type Policy = {
  /** Receives one agent request, returns exactly one chat completion. */
  complete(request: ChatCompletionRequest, ctx: PolicyContext): Promise<ChatCompletion>;
};
