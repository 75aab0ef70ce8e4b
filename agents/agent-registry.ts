import type { AgentName } from '../contracts/submission.ts';
import { NullAgent } from './null-agent.ts';
import { OracleAgent } from './oracle-agent.ts';
import { ToolLoopAgent } from './tool-loop-agent.ts';
import type { ScenarioAgent } from './scenario-agent.ts';

/** The agent of a run; policy-driven agents need the policy endpoint of that run. */
export function createAgent(name: AgentName, policyEndpointUrl?: string): ScenarioAgent {
  switch (name) {
    case 'oracle':
      return new OracleAgent();
    case 'null':
      return new NullAgent();
    case 'loop':
      if (!policyEndpointUrl) throw new Error('the loop agent needs a policy endpoint');
      return new ToolLoopAgent({ endpointUrl: policyEndpointUrl });
  }
}
