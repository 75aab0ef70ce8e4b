// `trl scenarios --collect`: pytest's collection of each scenario's tests, inside the scenario's
// image (built when missing) with no network — the host never imports a task's test code.
import { createDockerClient } from '../sandbox/docker-client.ts';
import { ensureDockerEngine } from '../infra/docker-engine.ts';
import { ensureBaseImage } from '../infra/base-image.ts';
import { ensureScenarioImage } from '../sandbox/scenario-image.ts';
import { currentWorkerIdentity } from '../sandbox/worker-identity.ts';
import { loadScenario } from '../catalog/load-scenario.ts';
import { scenarioContentHash } from '../catalog/scenario-content-hash.ts';
import { scenarioTestCount } from '../verifiers/scenario-test-count.ts';
import type { CollectedTests } from '../verifiers/collect-tests.ts';

export async function collectScenarioTests(
  scenarios: readonly { name: string; dir: string }[],
  onScenario: (done: number, total: number, name: string) => void,
): Promise<Map<string, CollectedTests & { cached: boolean }>> {
  const docker = createDockerClient();
  await ensureDockerEngine(docker);
  const baseImageTag = await ensureBaseImage(docker);
  const owner = currentWorkerIdentity();
  const counts = new Map<string, CollectedTests & { cached: boolean }>();
  for (const [index, scenario] of scenarios.entries()) {
    onScenario(index, scenarios.length, scenario.name);
    const { config } = await loadScenario(scenario.dir);
    const imageTag = await ensureScenarioImage(docker, baseImageTag, scenario);
    counts.set(
      scenario.name,
      await scenarioTestCount({
        docker,
        imageTag,
        scenario,
        contentHash: await scenarioContentHash(scenario.dir),
        owner,
        workflowId: 'trl-scenarios-collect',
        env: Object.entries(config.environment.env).map(([name, value]) => `${name}=${value}`),
      }),
    );
  }
  onScenario(scenarios.length, scenarios.length, '');
  return counts;
}
