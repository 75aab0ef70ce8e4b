// The policy chain the benches measure: the single-model example (every agent request to one model,
// unchanged: a pass-through policy) in its Docker sandbox, with the policy host and the gateway in
// this process, in front of the given upstream. Imported only by benches that use Docker.
import path from 'node:path';
import { examplesDir } from '../common/data-layout.ts';
import type { Allowlist } from '../gateway/catalog/allowlist.ts';
import type { ChatUpstream } from '../gateway/upstream/chat-upstream.ts';
import { ensureBaseImage } from '../infra/base-image.ts';
import { ensurePolicySandboxImage } from '../infra/policy-sandbox-image.ts';
import { bundlePack } from '../packs/bundle-pack.ts';
import { readPackDirectory } from '../packs/read-pack.ts';
import { startPolicyRun, type PolicyRun } from '../policy/host/policy-run.ts';
import { createDockerClient } from '../sandbox/docker-client.ts';
import { currentWorkerIdentity } from '../sandbox/worker-identity.ts';

export async function startPassThroughPolicyChain(options: {
  allowlist: Allowlist;
  upstream: ChatUpstream;
  dir: string;
  name: string;
}): Promise<PolicyRun> {
  const docker = createDockerClient();
  const policyImage = await ensurePolicySandboxImage(docker, await ensureBaseImage(docker));
  const bundle = await bundlePack(await readPackDirectory(path.join(examplesDir, 'single-model')));
  return startPolicyRun({
    docker,
    owner: currentWorkerIdentity(),
    workflowId: `${options.name}-${process.pid}`,
    scenario: 'bench',
    policyImage,
    bundleCode: bundle.code,
    allowlist: options.allowlist,
    upstream: options.upstream,
    capUsd: 1e6,
    seed: 0,
    dir: options.dir,
    bindHost: '127.0.0.1',
    requestTimeoutMs: 60_000,
    maxAgentRequests: Number.MAX_SAFE_INTEGER,
  });
}
