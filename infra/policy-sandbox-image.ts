// The policy sandbox image: the sandbox base plus Debian's nodejs and the policy runner. It holds
// no scenario files; policies run in it with no network, a read-only root and tight limits.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type Docker from 'dockerode';
import { policyRunnerFile } from '../common/data-layout.ts';
import { say } from '../common/log.ts';
import { imageExists } from '../sandbox/docker-client.ts';
import { buildImage } from '../sandbox/image-build.ts';

const runnerFile = policyRunnerFile;
export const policyRunnerPathInImage = '/opt/trl/runner.mjs';

const dockerfile = `ARG BASE_IMAGE
FROM \${BASE_IMAGE}
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends nodejs >/dev/null && rm -rf /var/lib/apt/lists/*
COPY runner.mjs ${policyRunnerPathInImage}
`;

export async function ensurePolicySandboxImage(docker: Docker, baseImageTag: string): Promise<string> {
  const runner = await readFile(runnerFile);
  const base = await docker.getImage(baseImageTag).inspect();
  const hash = createHash('sha256').update(base.Id).update(dockerfile).update(runner).digest('hex').slice(0, 12);
  const tag = `trl-policy-sandbox:${hash}`;
  if (await imageExists(docker, tag)) return tag;
  say(`building the policy sandbox image ${tag} (Debian nodejs + runner)`);
  await buildImage(docker, {
    tag,
    files: [
      { name: 'Dockerfile', content: Buffer.from(dockerfile) },
      { name: 'runner.mjs', content: runner },
    ],
    buildArgs: { BASE_IMAGE: baseImageTag },
  });
  return tag;
}
