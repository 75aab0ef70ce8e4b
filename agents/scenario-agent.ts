// The agent interface: given a running scenario container, do the task before the deadline.
// Validator-side test agents (oracle, null) and the LLM-driven agent all implement it.
import type { ContainerSession } from '../sandbox/container-session.ts';

export interface AgentTask {
  scenario: string;
  scenarioDir: string;
  instruction: string;
  /** [environment] workdir, else the image's WORKDIR, else /app. */
  workdir: string;
  /** The OS user the agent runs as ([agent] user, else the image's USER, never root) and its ids. */
  user?: { name: string; uid: number; gid: number; home: string };
  /** [agent] env (the agent) and [solution] env (the oracle), as NAME=value. */
  env?: string[];
  solutionEnv?: string[];
  /** The account the oracle runs solve.sh as: the image's default user (root when the image sets none). */
  solutionUser?: { name: string; uid: number; gid: number; home: string };
}

export interface AgentRunRequest {
  session: ContainerSession;
  task: AgentTask;
  /** Absolute deadline on performance.now()'s clock. */
  deadlineMs: number;
  /** Called while a command runs (progress); the worker's activities beat on their own (workers/steady-heartbeat.ts).
   * */
  onTick?: () => void;
  signal?: AbortSignal;
}

export interface AgentRunRecord {
  exitCode: number | null;
  timedOut: boolean;
  /** Human-readable transcript of what the agent did (bounded). */
  transcript: string;
  /** The agent kept crashing of this signal before the policy saw any request (agents/crash-restart.ts): the
   * infrastructure's. */
  crashedBeforeFirstRequest?: string;
}

export interface ScenarioAgent {
  readonly name: string;
  run(request: AgentRunRequest): Promise<AgentRunRecord>;
  /** The agent's own session records (Hermes' files), kept as an artifact when present. */
  records?(): Buffer | undefined;
}

/** The unprivileged user agents run as inside the scenario container unless the task names another. */
export const agentUser = 'agent';

/** The task's agent user, or the base image's `agent` (uid 1000). */
export function agentAccount(task: AgentTask): { name: string; uid: number; gid: number; home: string } {
  return task.user ?? { name: agentUser, uid: 1000, gid: 1000, home: '/home/agent' };
}
