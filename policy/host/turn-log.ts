// The agent's turns as the policy host saw them: for each request, the messages new since the
// previous one (tool results, user turns), the answer, and timings. Written line by line as turns
// happen, so it survives an agent killed at its deadline. Joined to the model-call log by requestId.
import { AppendLog } from '../../common/append-log.ts';

export interface TurnEntry {
  requestId: string;
  turn: number;
  startedAtMs: number;
  latencyMs: number;
  messageCount: number;
  newMessages: unknown[];
  toolCount: number;
  response?: unknown;
  error?: { kind: string; message: string };
}

const maxEntryChars = 512 * 1024;

export class TurnLog {
  private stream: AppendLog | undefined;
  private previousCount = 0;
  turns = 0;

  constructor(
    readonly file?: string,
    /** Sees every answer the agent received (provenance measures it). */
    private readonly onResponse?: (response: unknown) => void,
    /** Sees every request the agent sent, whole (what the agent gave the policy: gateway/injection/). */
    private readonly onRequest?: (body: unknown) => void,
  ) {
    if (file) this.stream = new AppendLog(file);
  }

  /** An agent request as it arrived, before the policy sees it. */
  noteRequest(body: unknown): void {
    this.onRequest?.(body);
  }

  /** Messages this request adds to the conversation (an agent may also restart it: then all). */
  newMessagesOf(messages: unknown[]): unknown[] {
    const fresh = messages.length >= this.previousCount ? messages.slice(this.previousCount) : messages;
    this.previousCount = messages.length;
    return fresh;
  }

  append(entry: Omit<TurnEntry, 'turn'>): void {
    this.turns += 1;
    if (entry.response !== undefined) this.onResponse?.(entry.response);
    let line = JSON.stringify({ turn: this.turns, ...entry });
    if (line.length > maxEntryChars)
      line = JSON.stringify({
        turn: this.turns,
        ...entry,
        newMessages: `[${entry.newMessages.length} messages, ${line.length} chars: too large to log]`,
      });
    this.stream?.write(line + '\n');
  }

  async close(): Promise<void> {
    const stream = this.stream;
    this.stream = undefined;
    await stream?.close();
  }
}
