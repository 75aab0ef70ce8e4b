// The sandbox base image, built offline: debootstrap from Debian packages + `docker import`,
// then a finishing `docker build`. Tagged by a hash of its recipe, so it is rebuilt only
// when the recipe (package list, Dockerfile, verifier plugin) changes; a machine that holds the
// recipe's archive (`trl images save` elsewhere, infra/image-archive.ts) loads it instead.
import { createHash } from 'node:crypto';
import { readFile, rm, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type Docker from 'dockerode';
import { baseImageArchiveFile, baseImageDir, baseImageRootfsDir, cacheDir, repoRoot } from '../common/data-layout.ts';
import { say } from '../common/log.ts';
import { buildImage } from '../sandbox/image-build.ts';
import { ensureDebianPackages, configuredDebianMirror } from './debian-packages.ts';
import { runCommand } from '../common/run-command.ts';
import { ensureImageFromArchive } from './image-archive.ts';
import { ensureHermesWheelhouse, readHermesLock } from './hermes-wheelhouse.ts';

export const baseImageRepository = 'trl-sandbox-base';
export const debianSuite = 'bookworm';
const ctrfPluginFile = path.join(repoRoot, 'verifiers', 'trl_ctrf.py');
const agentRunHelperFile = path.join(repoRoot, 'verifiers', 'trl_agent_run.py');

export interface BaseImageRecipe {
  packages: string[];
  dockerfile: string;
  ctrfPlugin: string;
  agentRunHelper: string;
  hermesLock: string;
  hash: string;
}

export async function readBaseImageRecipe(): Promise<BaseImageRecipe> {
  const packageText = await readFile(path.join(baseImageDir, 'packages.txt'), 'utf8');
  const packages = packageText
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const dockerfile = await readFile(path.join(baseImageDir, 'Dockerfile'), 'utf8');
  const ctrfPlugin = await readFile(ctrfPluginFile, 'utf8');
  const agentRunHelper = await readFile(agentRunHelperFile, 'utf8');
  const { lock: hermesLock } = await readHermesLock();
  const hash = createHash('sha256')
    .update(
      JSON.stringify({
        suite: debianSuite,
        variant: 'minbase',
        packages,
        dockerfile,
        ctrfPlugin,
        agentRunHelper,
        hermesLock,
      }),
    )
    .digest('hex')
    .slice(0, 12);
  return { packages, dockerfile, ctrfPlugin, agentRunHelper, hermesLock, hash };
}

export function baseImageTag(recipe: BaseImageRecipe): string {
  return `${baseImageRepository}:${recipe.hash}`;
}

/** Ensures the base image of the current recipe exists and `:latest` points at it; returns its tag. */
export async function ensureBaseImage(docker: Docker): Promise<string> {
  const recipe = await readBaseImageRecipe();
  const tag = baseImageTag(recipe);
  await ensureImageFromArchive(
    docker,
    tag,
    baseImageArchiveFile(recipe.hash),
    () => buildBaseImage(docker, recipe, tag),
    say,
  );
  const latest = `${baseImageRepository}:latest`;
  const [current, wanted] = await Promise.all([
    docker
      .getImage(latest)
      .inspect()
      .catch(() => undefined),
    docker.getImage(tag).inspect(),
  ]);
  if (current?.Id !== wanted.Id) await docker.getImage(tag).tag({ repo: baseImageRepository, tag: 'latest' });
  return tag;
}

async function buildBaseImage(docker: Docker, recipe: BaseImageRecipe, tag: string): Promise<void> {
  const started = performance.now();
  say(`building sandbox base image ${tag} from Debian packages (debootstrap; about 2 minutes, once)`);
  // The Hermes wheels come from PyPI while debootstrap fetches from Debian: one waits on the other's network no longer.
  const wheelhouseReady = ensureHermesWheelhouse();
  wheelhouseReady.catch(() => undefined); // awaited below; a failure is thrown there, after the root filesystem's own
  await ensureDebianPackages(['debootstrap']);
  const mirror = await configuredDebianMirror();
  const rootfsDir = baseImageRootfsDir(recipe.hash);
  const rootfsTag = `trl-sandbox-rootfs:${recipe.hash}`;
  await rm(rootfsDir, { recursive: true, force: true });
  await mkdir(cacheDir, { recursive: true });
  try {
    await runCommand('debootstrap', [
      '--variant=minbase',
      `--include=${recipe.packages.join(',')}`,
      debianSuite,
      rootfsDir,
      mirror,
    ]);
    // Keep the image lean: apt lists and caches are re-fetched by scenario builds that need apt.
    await runCommand('sh', [
      '-c',
      `rm -rf "${rootfsDir}"/var/cache/apt/archives/*.deb "${rootfsDir}"/var/lib/apt/lists/*`,
    ]);
    say(`importing root filesystem as ${rootfsTag}`);
    await runCommand('sh', ['-c', `tar -C "${rootfsDir}" -c . | docker import - ${rootfsTag}`]);
  } finally {
    await rm(rootfsDir, { recursive: true, force: true });
  }
  const wheelhouse = await wheelhouseReady;
  const wheels = await Promise.all(
    wheelhouse.wheels.map(async (name) => ({
      name: `hermes-wheelhouse/${name}`,
      content: await readFile(path.join(wheelhouse.dir, name)),
    })),
  );
  say(`installing Hermes ${wheelhouse.hermesVersion} into the image from ${wheels.length} wheels`);
  await buildImage(docker, {
    tag,
    files: [
      { name: 'Dockerfile', content: Buffer.from(recipe.dockerfile) },
      { name: 'trl_ctrf.py', content: Buffer.from(recipe.ctrfPlugin) },
      { name: 'trl_agent_run.py', content: Buffer.from(recipe.agentRunHelper) },
      { name: 'hermes-wheelhouse/requirements.lock', content: Buffer.from(recipe.hermesLock) },
      ...wheels,
    ],
    buildArgs: { ROOTFS: rootfsTag },
  });
  say(`built ${tag} in ${((performance.now() - started) / 1000).toFixed(0)}s`);
}
