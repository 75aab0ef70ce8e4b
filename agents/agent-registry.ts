// Builds the agent of a name (contracts/agent-kinds.ts owns the names and what they imply).
import type { AgentName } from '../contracts/agent-kinds.ts';
import { HermesAgent } from './hermes-agent.ts';
import { NullAgent } from './null-agent.ts';
import { OracleAgent } from './oracle-agent.ts';
import { ToolLoopAgent } from './tool-loop-agent.ts';
import type { ScenarioAgent } from './scenario-agent.ts';

export interface AgentWiring {
  /** The policy endpoint as this agent reaches it; policy-driven agents only. */
  policyEndpointUrl?: string;
  maxTurns: number;
}

export function createAgent(name: AgentName, wiring: AgentWiring): ScenarioAgent {
  const endpoint = () => {
    if (!wiring.policyEndpointUrl) throw new Error(`the ${name} agent needs a policy endpoint`);
    return wiring.policyEndpointUrl;
  };
  switch (name) {
    case 'oracle':
      return new OracleAgent();
    case 'partial':
      return new OracleAgent('partial.sh', 'partial');
    case 'null':
      return new NullAgent();
    case 'loop':
      return new ToolLoopAgent({ endpointUrl: endpoint(), maxTurns: wiring.maxTurns });
    case 'hermes':
      return new HermesAgent({ endpointUrl: endpoint(), maxTurns: wiring.maxTurns });
  }
}
