// A scenario's image: its environment/ folder built FROM the sandbox base image, tagged by a hash
// of both, so it is rebuilt only when either changes.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type Docker from 'dockerode';
import { imageExists } from './docker-client.ts';
import { buildImage } from './image-build.ts';
import { readDirectoryAsFiles } from './tar-archive.ts';

export async function ensureScenarioImage(
  docker: Docker,
  baseImageTag: string,
  scenario: { name: string; dir: string },
  onProgress?: () => void,
): Promise<string> {
  const files = await readDirectoryAsFiles(path.join(scenario.dir, 'environment'));
  const base = await docker.getImage(baseImageTag).inspect();
  const hash = createHash('sha256').update(base.Id);
  for (const file of files) hash.update(file.name).update('\0').update(file.content).update('\0');
  const imageTag = `trl-scenario-${scenario.name}:${hash.digest('hex').slice(0, 12)}`;
  if (!(await imageExists(docker, imageTag))) {
    await buildImage(docker, {
      tag: imageTag,
      files,
      buildArgs: { BASE_IMAGE: baseImageTag },
      labels: { 'trl.scenario': scenario.name },
      onProgress,
    });
  }
  return imageTag;
}
