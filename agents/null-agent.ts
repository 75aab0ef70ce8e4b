// Validator-side test agent that does nothing: a scenario's tests must fail for it,
// which proves they check the agent's work rather than the starting state.
import type { AgentRunRecord, ScenarioAgent } from './scenario-agent.ts';

export class NullAgent implements ScenarioAgent {
  readonly name = 'null';

  async run(): Promise<AgentRunRecord> {
    return { exitCode: 0, timedOut: false, transcript: '(null agent: did nothing)' };
  }
}
