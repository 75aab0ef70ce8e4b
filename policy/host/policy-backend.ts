// The seam between the agent endpoint and whatever answers the agent: the TypeScript policy in its
// no-network sandbox (a whole completion, re-cut into chunks when the agent streams) or the Python policy
// sidecar (its HTTP answer relayed byte for byte). Either way the endpoint owns the wire to the
// agent and every policy fault becomes a recorded fault and an OpenAI-style error.
import type { PolicyCompletion } from './completion-schema.ts';

export type PolicyFaultKind =
  | 'start_failed'
  | 'crash'
  | 'timeout'
  | 'malformed_response'
  | 'policy_exception'
  | 'protocol_violation'
  | 'watchdog';

export interface PolicyFault {
  kind: PolicyFaultKind;
  requestId?: string;
  message: string;
}

/** The agent asked for more turns than its limit: the agent's budget, not the policy's fault. */
export class TurnLimitError extends Error {
  constructor(readonly limit: number) {
    super(`the agent reached its limit of ${limit} model requests`);
    this.name = 'TurnLimitError';
  }
}

export class PolicyRequestError extends Error {
  constructor(
    readonly status: number,
    readonly fault: PolicyFault,
  ) {
    super(fault.message);
    this.name = 'PolicyRequestError';
  }
}

/** One agent request as the endpoint parsed it: the whole body, `stream` and `stream_options` included. */
export type AgentRequestBody = {
  messages: unknown[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
} & Record<string, unknown>;

export type PolicyAnswer =
  /** A whole completion; the endpoint streams it as chunks when the agent asked for a stream. */
  | { kind: 'completion'; completion: PolicyCompletion }
  /** An HTTP answer to pass through unchanged (status, content type, bytes as they come). */
  | { kind: 'relay'; status: number; contentType: string; body: AsyncIterable<Uint8Array> | Iterable<Uint8Array> };

export interface PolicyBackend {
  /** Answers one agent request; throws PolicyRequestError (a policy fault) or TurnLimitError. */
  answer(body: AgentRequestBody): Promise<PolicyAnswer>;
  /** Faults recorded so far (bounded). */
  readonly faults: readonly PolicyFault[];
  /** Set when the policy never became ready: nothing will answer, the agent need not start. */
  readonly startFailure?: PolicyFault;
  /** Set when the policy's sandbox was killed from outside: the infrastructure's loss, not a policy fault. */
  readonly sandboxLost?: string;
  /** Agent requests the policy answered. */
  readonly requestsServed: number;
  /** What goes into policy.log (bounded); complete once stop() has resolved. */
  logText(): string;
  stop(): Promise<void>;
}
