// One agent request as every policy backend counts it: the turn limit, the request id that joins
// the model-call log, and the turn-log line written when the request is answered or fails.
import { TurnLimitError, type PolicyFault } from './policy-backend.ts';
import type { TurnLog } from './turn-log.ts';

export interface AgentTurn {
  id: string;
  /** Writes the turn's line: what the agent received, or the fault that answered it. */
  record(outcome: { response?: unknown; error?: PolicyFault }): void;
}

export class AgentTurns {
  private next = 1;

  constructor(private readonly options: { maxAgentRequests?: number; turnLog?: TurnLog }) {}

  /** Requests taken so far. */
  get count(): number {
    return this.next - 1;
  }

  /** Starts a turn, or throws TurnLimitError past the agent's turn limit. */
  begin(body: { messages: unknown[]; tools?: unknown }): AgentTurn {
    const { maxAgentRequests, turnLog } = this.options;
    if (maxAgentRequests !== undefined && this.next > maxAgentRequests) throw new TurnLimitError(maxAgentRequests);
    const id = `req-${this.next++}`;
    turnLog?.noteRequest(body);
    const started = performance.now();
    const newMessages = turnLog?.newMessagesOf(body.messages) ?? [];
    return {
      id,
      record: (outcome) =>
        turnLog?.append({
          requestId: id,
          startedAtMs: Math.round(started),
          latencyMs: Math.round(performance.now() - started),
          messageCount: body.messages.length,
          newMessages,
          toolCount: Array.isArray(body.tools) ? body.tools.length : 0,
          response: outcome.response,
          error: outcome.error && { kind: outcome.error.kind, message: outcome.error.message },
        }),
    };
  }
}
