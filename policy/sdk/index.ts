// trl-policy-sdk: what a fusion policy imports. Types for the OpenAI bodies and the context,
// definePolicy, the call error, and small pure helpers. No Node built-ins: it is bundled into the
// policy sandbox with platform "neutral".
export type {
  AssistantMessage,
  BudgetView,
  CallErrorType,
  CallOptions,
  ChatCompletion,
  ChatCompletionChoice,
  ChatCompletionRequest,
  ChatMessage,
  ChatRole,
  ContentPart,
  DeveloperMessage,
  FinishReason,
  FunctionTool,
  ImageContentPart,
  JsonSchema,
  MessageContent,
  ModelInfo,
  Policy,
  PolicyContext,
  ResponseFormat,
  SystemMessage,
  TextContentPart,
  ToolCall,
  ToolChoice,
  ToolMessage,
  Usage,
  UserMessage,
} from './types.ts';
export { definePolicy } from './define-policy.ts';
export { PolicyCallError, isPolicyCallError, isRetryableError, policyCallErrorBrand } from './call-error.ts';
export {
  contentText,
  messageText,
  lastMessageOf,
  lastUserText,
  firstUserText,
  systemText,
  assistantTurnCount,
  withSystemPrompt,
} from './messages.ts';
export {
  toolCallsOf,
  hasToolCalls,
  parseToolArguments,
  hasMalformedToolCalls,
  completionSignature,
} from './tool-calls.ts';
export { looksLikeToolError, countToolErrors, countToolResults } from './transcript.ts';
export { completionText, looksLikeGivingUp, isEmptyCompletion, textCompletion } from './completions.ts';
export { estimateTokens, findModel, estimateCallCostUsd, affordableMaxTokens, fitsContext } from './budget.ts';

/** The SDK version of this package (TypeScript packs are `policy.ts` + SKILL.md in format 1). */
export const sdkVersion = 1;
