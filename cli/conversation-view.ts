// One scenario's conversation, turn by turn, from the turn log (turns.jsonl) joined to the model-call
// log (model-calls.jsonl) by request id: who answered (model, cost, latency), the tool calls and their
// output, long text truncated in the middle so both ends stay readable.

interface Message {
  role?: string;
  name?: string;
  content?: unknown;
  tool_calls?: { function?: { name?: string; arguments?: string } }[];
  tool_call_id?: string;
}

interface TurnRow {
  turn: number;
  requestId: string;
  latencyMs: number;
  newMessages: unknown;
  response?: Message;
  error?: { kind: string; message: string };
}

interface CallEnd {
  phase: 'end' | 'refused' | 'start';
  requestId?: string;
  model: string;
  status?: string;
  costUsd?: number;
  latencyMs?: number;
  errorType?: string;
}

export function parseJsonLines<Row>(text: string): Row[] {
  const rows: Row[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      rows.push(JSON.parse(line) as Row);
    } catch {
      // A line cut by a killed writer: the rest of the log still reads.
    }
  }
  return rows;
}

export function truncateMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const keep = Math.floor((maxChars - 30) / 2);
  return `${text.slice(0, keep)} … [${text.length - 2 * keep} chars omitted] … ${text.slice(-keep)}`;
}

function textOf(content: unknown): string {
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

function indent(text: string, prefix = '    '): string {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
}

export interface ConversationOptions {
  /** Longest text shown for one message or tool output. */
  maxChars?: number;
}

export function renderConversation(turnsJsonl: string, callsJsonl: string, options: ConversationOptions = {}): string {
  const maxChars = options.maxChars ?? 600;
  const turns = parseJsonLines<TurnRow>(turnsJsonl);
  const calls = parseJsonLines<CallEnd>(callsJsonl).filter((c) => c.phase !== 'start');
  const out: string[] = [];
  for (const turn of turns) {
    const answered = calls.filter((c) => c.requestId === turn.requestId);
    const cost = answered.reduce((t, c) => t + (c.costUsd ?? 0), 0);
    const who = answered.length
      ? answered
          .map(
            (c) =>
              `${c.model}${c.phase === 'refused' ? ' (refused)' : c.status === 'error' ? ` (error${c.errorType ? ` ${c.errorType}` : ''})` : ''} ${c.latencyMs ?? 0} ms`,
          )
          .join(', ')
      : 'no model call';
    out.push(`── turn ${turn.turn} (${turn.requestId}) · ${turn.latencyMs} ms · $${cost.toFixed(4)} · ${who}`);
    const fresh = Array.isArray(turn.newMessages) ? (turn.newMessages as Message[]) : [];
    if (!Array.isArray(turn.newMessages) && turn.newMessages) out.push(indent(String(turn.newMessages)));
    for (const message of fresh) {
      // The previous answer is shown under its own turn.
      if (message.role === 'assistant' && turn.turn > 1) continue;
      if (message.role === 'system') out.push(`  system: [${textOf(message.content).length} chars]`);
      else if (message.role === 'tool')
        out.push(
          `  tool output${message.name ? ` (${message.name})` : ''}:\n${indent(truncateMiddle(textOf(message.content), maxChars))}`,
        );
      else out.push(`  ${message.role ?? 'message'}:\n${indent(truncateMiddle(textOf(message.content), maxChars))}`);
    }
    if (turn.error) out.push(`  error [${turn.error.kind}]: ${truncateMiddle(turn.error.message, maxChars)}`);
    const response = turn.response;
    if (response) {
      const text = textOf(response.content);
      if (text) out.push(`  assistant:\n${indent(truncateMiddle(text, maxChars))}`);
      for (const call of response.tool_calls ?? [])
        out.push(`  → ${call.function?.name ?? 'tool'}(${truncateMiddle(call.function?.arguments ?? '', maxChars)})`);
    }
  }
  if (!turns.length) out.push('(no turns recorded)');
  const total = calls.reduce((t, c) => t + (c.costUsd ?? 0), 0);
  out.push(
    `${turns.length} turn(s), ${calls.filter((c) => c.phase === 'end').length} model call(s), $${total.toFixed(4)}`,
  );
  return out.join('\n');
}
