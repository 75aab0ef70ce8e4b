// A scenario's image: its environment/ folder (or the context its compose file names) built FROM the sandbox base image, tagged by a hash
// of both, so it is rebuilt only when either changes. A Dockerfile FROM a public base (python:3.12-slim,
// golang:1.22, …) is built through its stand-in (dockerfile-rewrite.ts), with the host's CA bundle in
// the build context; one the base-image table cannot honour is refused with the reason.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type Docker from 'dockerode';
import { imageExists } from './docker-client.ts';
import {
  buildToolsContextDir,
  hostCaContextDir,
  parseDockerfile,
  planBuild,
  renderRewrite,
} from './dockerfile-rewrite.ts';
import { uvInstallerScript } from './registry-tape/verify-time-installs.ts';
import { buildImage } from './image-build.ts';
import { hostExtraCertificates, hostRegistryEndpoints } from './registry-endpoints.ts';
import { lstat, readFile } from 'node:fs/promises';
import { composeBuild, ComposeBuildError, isExcluded, taskBuild, type ComposeBuild } from './compose-build.ts';
import { listFilesRecursively, type ArchiveFile } from './tar-archive.ts';

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

/**
 * A Docker repository name for a scenario: lower case, only the characters a repository may hold, and
 * separators as Docker's grammar allows them between letters and digits (`.`, `_`, `__` or a run of `-`):
 * any other run (`.-` in `027.-tasks`) becomes one `-`.
 */
export function scenarioImageRepository(name: string): string {
  const body = name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/[._-]{2,}/g, (run) => (/^-+$/.test(run) || run === '__' ? run : '-'))
    .replace(/^[._-]+|[._-]+$/g, '');
  return `trl-scenario-${body || 'unnamed'}`;
}

/** A scenario's build context and the Dockerfile's place in it. */
export interface ScenarioBuildContext {
  files: ArchiveFile[];
  /** The Dockerfile's path in the context (environment/Dockerfile when the task's compose file builds its folder). */
  dockerfile: string;
}

/** The files of the context the task's build names (compose-build.ts), its hidden folders left out. */
async function contextFiles(build: ComposeBuild): Promise<ArchiveFile[]> {
  const files: ArchiveFile[] = [];
  for (const relative of await listFilesRecursively(build.contextDir)) {
    if (isExcluded(build, relative)) continue;
    const full = path.join(build.contextDir, relative);
    files.push({ name: relative, content: await readFile(full), mode: (await lstat(full)).mode & 0o777 });
  }
  return files;
}

/** The build context for a scenario: environment/ (or what its compose file names), public bases rewritten. */
export async function scenarioBuildContext(scenario: { name: string; dir: string }): Promise<ScenarioBuildContext> {
  let build: ComposeBuild;
  try {
    const compose = await composeBuild(scenario.dir);
    const dockerfileText = await readFile(path.join(compose.contextDir, compose.dockerfile), 'utf8').catch(() => '');
    build = await taskBuild(scenario.dir, parseDockerfile(dockerfileText));
  } catch (error) {
    if (error instanceof ComposeBuildError) throw new BuildRefusedError(scenario.name, error.message);
    throw error;
  }
  const files = await contextFiles(build);
  const dockerfile = files.find((file) => file.name === build.dockerfile);
  if (!dockerfile) throw new BuildRefusedError(scenario.name, 'missing environment/Dockerfile');
  const plan = planBuild(dockerfile.content.toString('utf8'));
  if (plan.kind === 'refused') throw new BuildRefusedError(scenario.name, plan.reason);
  if (plan.kind === 'as-written') return { files, dockerfile: build.dockerfile };
  const rewritten = renderRewrite(plan, await hostRegistryEndpoints());
  const certificates = await hostExtraCertificates();
  const context = files.map((file) => {
    if (file.name === build.dockerfile) return { ...file, content: Buffer.from(rewritten) };
    // A .dockerignore that leaves out everything but named files must not leave out the CA folder.
    if (file.name === '.dockerignore')
      return {
        ...file,
        content: Buffer.concat([file.content, Buffer.from(`\n!${hostCaContextDir}\n!${buildToolsContextDir}\n`)]),
      };
    return file;
  });
  context.push(
    { name: `${hostCaContextDir}/.keep`, content: Buffer.alloc(0) },
    { name: `${buildToolsContextDir}/install_uv.py`, content: Buffer.from(uvInstallerScript), mode: 0o755 },
    ...certificates.map((pem, index) => ({
      name: `${hostCaContextDir}/host-${String(index).padStart(3, '0')}.crt`,
      content: Buffer.from(pem + '\n'),
    })),
  );
  return { files: context, dockerfile: build.dockerfile };
}

/** The tag a scenario's image has (or will have) on this engine, with the build context it hashes. */
export async function scenarioImageTag(
  docker: Docker,
  baseImageTag: string,
  scenario: { name: string; dir: string },
): Promise<{ imageTag: string; files: ArchiveFile[]; dockerfile: string }> {
  const { files, dockerfile } = await scenarioBuildContext(scenario);
  const base = await docker.getImage(baseImageTag).inspect();
  const hash = createHash('sha256').update(base.Id);
  // The Dockerfile's place is hashed only when it is not the default, so existing tags stay as they were.
  if (dockerfile !== 'Dockerfile') hash.update(`dockerfile=${dockerfile}`).update('\0');
  for (const file of files) hash.update(file.name).update('\0').update(file.content).update('\0');
  return {
    imageTag: `${scenarioImageRepository(scenario.name)}:${hash.digest('hex').slice(0, 12)}`,
    files,
    dockerfile,
  };
}

export async function ensureScenarioImage(
  docker: Docker,
  baseImageTag: string,
  scenario: { name: string; dir: string },
  onProgress?: () => void,
): Promise<string> {
  const { imageTag, files, dockerfile } = await scenarioImageTag(docker, baseImageTag, scenario);
  if (!(await imageExists(docker, imageTag))) {
    await buildImage(docker, {
      tag: imageTag,
      files,
      dockerfile,
      buildArgs: { BASE_IMAGE: baseImageTag },
      labels: { 'trl.scenario': scenario.name },
      onProgress,
    });
  }
  return imageTag;
}
