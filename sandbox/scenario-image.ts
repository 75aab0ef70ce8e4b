// A scenario's image: its environment/ folder built FROM the sandbox base image, tagged by a hash
// of both, so it is rebuilt only when either changes. A Dockerfile FROM a public base (python:3.12-slim,
// golang:1.22, …) is built through its stand-in (dockerfile-rewrite.ts), with the host's CA bundle in
// the build context; one the base-image table cannot honour is refused with the reason.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type Docker from 'dockerode';
import { imageExists } from './docker-client.ts';
import { hostCaContextDir, planBuild, renderRewrite } from './dockerfile-rewrite.ts';
import { buildImage } from './image-build.ts';
import { hostExtraCertificates, hostRegistryEndpoints } from './registry-endpoints.ts';
import { readDirectoryAsFiles, type ArchiveFile } from './tar-archive.ts';

/** A scenario's Dockerfile that cannot be built here (a base the table cannot honour): the task's failure. */
export class BuildRefusedError extends Error {
  constructor(
    readonly scenario: string,
    reason: string,
  ) {
    super(`scenario ${scenario}: ${reason}`);
    this.name = 'BuildRefusedError';
  }
}

/** A Docker repository name for a scenario: lower case, only the characters a repository may hold. */
export function scenarioImageRepository(name: string): string {
  return `trl-scenario-${name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '')}`;
}

/** The build context for a scenario's environment/: as written, or with its public bases rewritten. */
export async function scenarioBuildContext(scenario: { name: string; dir: string }): Promise<ArchiveFile[]> {
  const files = await readDirectoryAsFiles(path.join(scenario.dir, 'environment'));
  const dockerfile = files.find((file) => file.name === 'Dockerfile');
  if (!dockerfile) throw new BuildRefusedError(scenario.name, 'missing environment/Dockerfile');
  const plan = planBuild(dockerfile.content.toString('utf8'));
  if (plan.kind === 'refused') throw new BuildRefusedError(scenario.name, plan.reason);
  if (plan.kind === 'as-written') return files;
  const rewritten = renderRewrite(plan, await hostRegistryEndpoints());
  const certificates = await hostExtraCertificates();
  const context = files.map((file) => {
    if (file.name === 'Dockerfile') return { ...file, content: Buffer.from(rewritten) };
    // A .dockerignore that leaves out everything but named files must not leave out the CA folder.
    if (file.name === '.dockerignore')
      return { ...file, content: Buffer.concat([file.content, Buffer.from(`\n!${hostCaContextDir}\n`)]) };
    return file;
  });
  context.push(
    { name: `${hostCaContextDir}/.keep`, content: Buffer.alloc(0) },
    ...certificates.map((pem, index) => ({
      name: `${hostCaContextDir}/host-${String(index).padStart(3, '0')}.crt`,
      content: Buffer.from(pem + '\n'),
    })),
  );
  return context;
}

/** The tag a scenario's image has (or will have) on this engine, with the build context it hashes. */
export async function scenarioImageTag(
  docker: Docker,
  baseImageTag: string,
  scenario: { name: string; dir: string },
): Promise<{ imageTag: string; files: ArchiveFile[] }> {
  const files = await scenarioBuildContext(scenario);
  const base = await docker.getImage(baseImageTag).inspect();
  const hash = createHash('sha256').update(base.Id);
  for (const file of files) hash.update(file.name).update('\0').update(file.content).update('\0');
  return { imageTag: `${scenarioImageRepository(scenario.name)}:${hash.digest('hex').slice(0, 12)}`, files };
}

export async function ensureScenarioImage(
  docker: Docker,
  baseImageTag: string,
  scenario: { name: string; dir: string },
  onProgress?: () => void,
): Promise<string> {
  const { imageTag, files } = await scenarioImageTag(docker, baseImageTag, scenario);
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
