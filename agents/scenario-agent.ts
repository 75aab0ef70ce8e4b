// The agent interface: given a running scenario container, do the task before the deadline.
// Validator-side test agents (oracle, null) and the LLM-driven agent all implement it.
import type { ContainerSession } from '../sandbox/container-session.ts';

export interface AgentTask {
  scenario: string;
  scenarioDir: string;
  instruction: string;
  workdir: string;
}

export interface AgentRunRequest {
  session: ContainerSession;
  task: AgentTask;
  /** Absolute deadline on performance.now()'s clock. */
  deadlineMs: number;
  onTick: () => void;
  signal?: AbortSignal;
}

export interface AgentRunRecord {
  exitCode: number | null;
  timedOut: boolean;
  /** Human-readable transcript of what the agent did (bounded). */
  transcript: string;
  /** The agent kept crashing of this signal before the policy saw any request (agents/crash-restart.ts): the infrastructure's. */
  crashedBeforeFirstRequest?: string;
}

export interface ScenarioAgent {
  readonly name: string;
  run(request: AgentRunRequest): Promise<AgentRunRecord>;
  /** The agent's own session records (Hermes' files), kept as an artifact when present. */
  records?(): Buffer | undefined;
}

/** The unprivileged user every agent runs as inside the scenario container. */
export const agentUser = 'agent';
