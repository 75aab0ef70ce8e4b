// The policy sidecar image: the sandbox base plus Debian's python3-aiohttp and python3-httpx, the
// trajrl_policy SDK and the policy.json runner (recipe: infra/policy-sidecar-image/Dockerfile, build
// context policy/python). Tagged by a hash of everything that goes in, so a change rebuilds it.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type Docker from 'dockerode';
import { policyPythonDir, policySidecarDockerfile } from '../common/data-layout.ts';
import { say } from '../common/log.ts';
import { imageExists } from '../sandbox/docker-client.ts';
import { buildImage } from '../sandbox/image-build.ts';
import { readDirectoryAsFiles, type ArchiveFile } from '../sandbox/tar-archive.ts';

/** Where the image keeps the policy.json runner (the command of a data pack's sidecar). */
export const policyJsonRunnerPathInImage = '/opt/trajrl/policy_json_runner.py';

/** The build context: the Dockerfile and exactly the files it copies (no byte-code caches). */
export async function policySidecarBuildContext(): Promise<ArchiveFile[]> {
  const sdk = (await readDirectoryAsFiles(`${policyPythonDir}/trajrl_policy`, 'trajrl_policy')).filter(
    (file) => !file.name.includes('__pycache__/') && !file.name.endsWith('.pyc'),
  );
  return [
    { name: 'Dockerfile', content: await readFile(policySidecarDockerfile) },
    { name: 'policy_json_runner.py', content: await readFile(`${policyPythonDir}/policy_json_runner.py`), mode: 0o644 },
    ...sdk.map((file) => ({ ...file, mode: 0o644 })),
  ];
}

export async function ensurePolicySidecarImage(docker: Docker, baseImageTag: string): Promise<string> {
  const files = await policySidecarBuildContext();
  const base = await docker.getImage(baseImageTag).inspect();
  const hash = createHash('sha256').update(base.Id);
  for (const file of [...files].sort((a, b) => a.name.localeCompare(b.name)))
    hash.update(`${file.name}\0${file.content.length}\0`).update(file.content);
  const tag = `trl-policy-sidecar:${hash.digest('hex').slice(0, 12)}`;
  if (await imageExists(docker, tag)) return tag;
  say(`building the policy sidecar image ${tag} (Debian python3-aiohttp, python3-httpx + trajrl_policy)`);
  await buildImage(docker, { tag, files, buildArgs: { BASE_IMAGE: baseImageTag } });
  return tag;
}
