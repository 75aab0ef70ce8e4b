// The agent concept, owned here: every agent's name and what it implies for a run. Workflow code
// and the chain config import it (no Node built-ins); agents/agent-registry.ts builds the agents.
import { z } from 'zod';

export interface AgentKind {
  /** Goes through the miner's policy (and so spends money through the gateway). */
  policyDriven: boolean;
  /** Runs inside the scenario container and reaches the policy over a run network of its own. */
  inContainer: boolean;
  /** Validator-side: proves scenarios and verifiers, never scores a miner. */
  validatorSide: boolean;
  summary: string;
}

export const agentKinds = {
  hermes: {
    policyDriven: true,
    inContainer: true,
    validatorSide: false,
    summary: 'the competition agent (PyPI hermes-agent), inside the scenario container',
  },
  loop: {
    policyDriven: true,
    inContainer: false,
    validatorSide: false,
    summary: 'a small built-in tool-loop agent in the worker, exec-ing commands in the container',
  },
  oracle: {
    policyDriven: false,
    inContainer: false,
    validatorSide: true,
    summary: "runs the scenario's solution/solve.sh",
  },
  partial: {
    policyDriven: false,
    inContainer: false,
    validatorSide: true,
    summary: "runs the scenario's solution/partial.sh",
  },
  null: { policyDriven: false, inContainer: false, validatorSide: true, summary: 'does nothing' },
} as const satisfies Record<string, AgentKind>;

export const agentNames = Object.keys(agentKinds) as [keyof typeof agentKinds, ...(keyof typeof agentKinds)[]];
export const agentNameSchema = z.enum(agentNames);
export type AgentName = z.infer<typeof agentNameSchema>;

/** Agents whose runs go through the policy and the gateway: the paid ones. */
export function isPolicyDriven(agent: AgentName): boolean {
  return agentKinds[agent].policyDriven;
}

/** Agents that run inside the scenario container and need a run network to reach the policy. */
export function needsRunNetwork(agent: AgentName): boolean {
  return agentKinds[agent].inContainer && agentKinds[agent].policyDriven;
}

/** The agent a scored evaluation uses unless told otherwise. */
export const defaultAgent: AgentName = 'hermes';
