// hashScenarios: each scenario's content hash, so a rerun reuses a result only for the same scenario.
import type { ScenarioDescriptor } from '../contracts/results.ts';
import { scenarioContentHash } from '../catalog/scenario-content-hash.ts';

export async function hashScenarios(request: { scenarios: ScenarioDescriptor[] }): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  for (const scenario of request.scenarios) hashes[scenario.name] = await scenarioContentHash(scenario.dir);
  return hashes;
}
