// A scenario prepared by hand for the suites that call the scenario activities directly (no workflow):
// its loaded folder and built image, with the limits those suites use (1 CPU, 1 GiB, a 60 s verifier).
import type { ScenarioFolder } from '../../catalog/load-scenario.ts';
import type { PreparedScenario } from '../../contracts/results.ts';

export function preparedScenarioOf(
  folder: ScenarioFolder,
  imageTag: string,
  agent: { agentTimeoutSec: number; agentMaxTurns: number } = { agentTimeoutSec: 300, agentMaxTurns: 20 },
): PreparedScenario {
  return {
    name: folder.name,
    dir: folder.dir,
    imageTag,
    category: folder.config.metadata.category,
    difficulty: folder.config.metadata.difficulty,
    ...agent,
    verifierTimeoutSec: 60,
    cpus: 1,
    memoryMb: 1024,
    agentOutputs: folder.config.agent_outputs ?? [],
  };
}
