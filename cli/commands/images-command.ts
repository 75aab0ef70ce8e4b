// `trl images save | load`: the sandbox base image (with the policy images built on it) as one file,
// built once and carried to other machines (sandbox hosts, a CI cache). `save` writes the current
// recipe's images (built first if needed) to .cache/images/, where every bootstrap looks before it
// builds; `load FILE` puts an archive from elsewhere into the engine and refuses one that is not of
// this checkout's recipe.
import { baseImageArchiveFile } from '../../common/data-layout.ts';
import { createDockerClient } from '../../sandbox/docker-client.ts';
import { ensureDockerEngine } from '../../infra/docker-engine.ts';
import { baseImageTag, ensureBaseImage, readBaseImageRecipe } from '../../infra/base-image.ts';
import { loadImageArchive, saveImageArchive } from '../../infra/image-archive.ts';
import { ensurePolicySandboxImage } from '../../infra/policy-sandbox-image.ts';
import { ensurePolicySidecarImage } from '../../infra/policy-sidecar-image.ts';
import { UsageError } from '../usage-error.ts';

export type ImagesAction = 'save' | 'load';

export function parseImagesAction(text: string | undefined): ImagesAction {
  if (text === 'save' || text === 'load') return text;
  throw new UsageError(
    `trl images takes save or load${text === undefined ? '' : `, not "${text}"`}: trl images save [--out FILE] | trl images load FILE`,
  );
}

export async function imagesCommand(options: { action: ImagesAction; file?: string; out?: string }): Promise<number> {
  const docker = createDockerClient();
  await ensureDockerEngine(docker);
  const recipe = await readBaseImageRecipe();
  if (options.action === 'save') {
    const tag = await ensureBaseImage(docker);
    // The policy images are built on the base (apt, a minute cold); their tags hash the base's id, so
    // on a machine that loads this archive they are found as they are.
    const tags = [tag, await ensurePolicySandboxImage(docker, tag), await ensurePolicySidecarImage(docker, tag)];
    const file = options.out ?? baseImageArchiveFile(recipe.hash);
    const started = performance.now();
    const { bytes } = await saveImageArchive(docker, tags, file);
    process.stdout.write(
      `wrote ${tags.join(', ')} to ${file} (${(bytes / 1e6).toFixed(0)} MB, ${((performance.now() - started) / 1000).toFixed(0)} s)\n`,
    );
    process.stdout.write(
      `a machine with this checkout loads it instead of building: put it at the same path there, or run trl images load FILE\n`,
    );
    return 0;
  }
  if (!options.file) throw new UsageError('trl images load needs the archive: trl images load FILE');
  const tag = baseImageTag(recipe);
  const load = await loadImageArchive(docker, options.file, tag);
  if (!load.loaded) {
    process.stderr.write(`trl: ${load.reason} (this checkout's base image is ${tag})\n`);
    return 1;
  }
  await ensureBaseImage(docker); // points :latest at it
  process.stdout.write(`loaded ${tag} from ${options.file}\n`);
  return 0;
}
