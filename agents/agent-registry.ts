import type { AgentName } from '../contracts/submission.ts';
import { NullAgent } from './null-agent.ts';
import { OracleAgent } from './oracle-agent.ts';
import type { ScenarioAgent } from './scenario-agent.ts';

export function createAgent(name: AgentName): ScenarioAgent {
  switch (name) {
    case 'oracle':
      return new OracleAgent();
    case 'null':
      return new NullAgent();
  }
}
