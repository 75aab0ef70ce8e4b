// One scenario's conversation as data: the turn log (turns.jsonl, what the agent sent and got back
// through the policy) joined to the model-call log (model-calls.jsonl, every call the policy made
// through the gateway) by request id. Read by `trl report` (routing timeline) and `trl export`.
import { parseJsonLines } from '../conversation-view.ts';

export interface ChatMessage {
  role?: string;
  name?: string;
  content?: unknown;
  tool_calls?: { id?: string; type?: string; function?: { name?: string; arguments?: string } }[];
  tool_call_id?: string;
  reasoning_content?: unknown;
}

/** One model call behind a turn: its end (or refusal) row, with the time its start row was written. */
export interface ModelCall {
  callId?: string;
  model: string;
  /** `ok`, `error` or `refused`. */
  status: string;
  errorType?: string;
  branch?: string;
  costUsd: number;
  latencyMs: number;
  promptTokens: number;
  cachedPromptTokens: number;
  completionTokens: number;
  startedAt?: string;
  endedAt?: string;
}

export interface JoinedTurn {
  turn: number;
  requestId: string;
  latencyMs: number;
  /** Messages new since the previous request (tool results, user turns); empty when too large to log. */
  newMessages: ChatMessage[];
  /** Set when the turn log dropped the messages as too large. */
  newMessagesOmitted?: string;
  response?: ChatMessage;
  error?: { kind: string; message: string };
  calls: ModelCall[];
}

interface TurnRow {
  turn: number;
  requestId: string;
  latencyMs?: number;
  newMessages?: unknown;
  response?: ChatMessage;
  error?: { kind: string; message: string };
}

interface CallRow {
  time?: string;
  phase: 'start' | 'end' | 'refused';
  callId?: string;
  requestId?: string;
  branch?: string;
  model: string;
  status?: string;
  errorType?: string;
  costUsd?: number;
  latencyMs?: number;
  promptTokens?: number;
  cachedPromptTokens?: number;
  completionTokens?: number;
}

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** The calls of one log grouped by request id, in the order they finished. */
export function callsByRequest(callsJsonl: string): Map<string, ModelCall[]> {
  const rows = parseJsonLines<CallRow>(callsJsonl);
  const startedAt = new Map<string, string>();
  for (const row of rows) if (row.phase === 'start' && row.callId && row.time) startedAt.set(row.callId, row.time);
  const grouped = new Map<string, ModelCall[]>();
  for (const row of rows) {
    if (row.phase === 'start' || !row.requestId) continue;
    const call: ModelCall = {
      callId: row.callId,
      model: String(row.model),
      status: row.phase === 'refused' ? 'refused' : (row.status ?? 'error'),
      errorType: row.errorType,
      branch: row.branch,
      costUsd: count(row.costUsd),
      latencyMs: count(row.latencyMs),
      promptTokens: count(row.promptTokens),
      cachedPromptTokens: count(row.cachedPromptTokens),
      completionTokens: count(row.completionTokens),
      startedAt: row.callId ? startedAt.get(row.callId) : undefined,
      endedAt: row.time,
    };
    const list = grouped.get(row.requestId) ?? [];
    list.push(call);
    grouped.set(row.requestId, list);
  }
  return grouped;
}

/** The tool definitions the agent offered, from the first call's request body (the start row keeps it). */
export function toolsOffered(callsJsonl: string): unknown[] | undefined {
  for (const row of parseJsonLines<{ phase?: string; request?: { tools?: unknown } }>(callsJsonl)) {
    if (row.phase === 'start' && Array.isArray(row.request?.tools)) return row.request.tools;
  }
  return undefined;
}

export function joinTurns(turnsJsonl: string, callsJsonl: string): JoinedTurn[] {
  const calls = callsByRequest(callsJsonl);
  return parseJsonLines<TurnRow>(turnsJsonl)
    .filter((row) => typeof row.turn === 'number' && typeof row.requestId === 'string')
    .map((row) => ({
      turn: row.turn,
      requestId: row.requestId,
      latencyMs: count(row.latencyMs),
      newMessages: Array.isArray(row.newMessages) ? (row.newMessages as ChatMessage[]) : [],
      ...(typeof row.newMessages === 'string' ? { newMessagesOmitted: row.newMessages } : {}),
      response: row.response && typeof row.response === 'object' ? row.response : undefined,
      error: row.error,
      calls: calls.get(row.requestId) ?? [],
    }));
}

/** A message's content as text (content parts joined). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((part) =>
        typeof part === 'object' && part && 'text' in part
          ? String((part as { text: unknown }).text)
          : JSON.stringify(part),
      )
      .join('\n');
  return content == null ? '' : JSON.stringify(content);
}
