// The activity dependencies a bench needs to start policies in real sandboxes outside a worker (the probe and
// coaching corpora): the stack bootstrapped once, the shared images, a $1 cap per run.
import type { ActivityDependencies } from '../activities/activity-context.ts';
import { loadAllowlist } from '../gateway/catalog/allowlist.ts';
import { bootstrap } from '../infra/bootstrap.ts';
import { createDockerClient } from '../sandbox/docker-client.ts';
import { currentWorkerIdentity } from '../sandbox/worker-identity.ts';

export async function benchActivityDeps(): Promise<ActivityDependencies> {
  const docker = createDockerClient();
  const stack = await bootstrap(docker);
  return {
    docker,
    owner: currentWorkerIdentity(),
    allowlist: loadAllowlist(),
    policyImage: stack.policyImage,
    sidecarImage: stack.sidecarImage,
    budgetCapUsd: 1,
    policyRequestTimeoutMs: 60_000,
    maxAgentOutputBytes: 1 << 24,
    baseImageTag: stack.baseImage,
  } as unknown as ActivityDependencies;
}
