// Image archives: images built once and carried to other machines as one file. The base image is
// the costly one (debootstrap and Hermes, 1½–2 minutes); its archive, which also holds the two
// policy images built on it, is named by its recipe hash (common/data-layout.ts,
// baseImageArchiveFile), so a machine loads it only for the recipe it would build. The engine reads
// the gzip itself (`docker load` takes compressed archives). An archive that is truncated, foreign or
// lacks the tag is reported, not thrown: the caller builds instead. An archive is trusted as the
// operator's own, like the checkout beside it: it is checked for the tag, not for how it was made.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type Docker from 'dockerode';
import { imageExists } from '../sandbox/docker-client.ts';

/** The engine's answer to a load is a few JSON lines; more than this is not read. */
const maxLoadAnswerBytes = 1 << 20;

/** `absent`: there was no archive to try, which is not worth saying. */
export type ArchiveLoad = { loaded: true } | { loaded: false; absent: boolean; reason: string };

/**
 * Writes the images `tags` (their shared layers once) as one gzip archive to `file`, complete or not
 * at all: written aside, then renamed.
 */
export async function saveImageArchive(docker: Docker, tags: string[], file: string): Promise<{ bytes: number }> {
  await mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  try {
    // GET /images/get?names=…&names=…: dockerode has no types for it.
    const tar = await (
      docker as unknown as { getImages(options: { names: string[] }): Promise<NodeJS.ReadableStream> }
    ).getImages({ names: tags });
    // Level 1: most of the size gain at a fraction of the default level's CPU (zlib runs off the event loop).
    await pipeline(tar, createGzip({ level: 1 }), createWriteStream(partial));
    await rename(partial, file);
  } finally {
    await rm(partial, { force: true });
  }
  return { bytes: (await stat(file)).size };
}

/** Loads the archive at `file` (every image in it) and checks that it gave the engine `tag`. */
export async function loadImageArchive(docker: Docker, file: string, tag: string): Promise<ArchiveLoad> {
  if (
    !(await stat(file).then(
      (found) => found.isFile(),
      () => false,
    ))
  )
    return { loaded: false, absent: true, reason: `no archive at ${file}` };
  try {
    const answer = await readBounded(await docker.loadImage(createReadStream(file), { quiet: true }));
    const refusal = engineError(answer);
    if (refusal) return { loaded: false, absent: false, reason: `the engine refused ${file}: ${refusal}` };
  } catch (error) {
    return { loaded: false, absent: false, reason: `loading ${file} failed: ${(error as Error).message}` };
  }
  if (!(await imageExists(docker, tag)))
    return { loaded: false, absent: false, reason: `${file} does not hold ${tag}` };
  return { loaded: true };
}

/** The first error line of the engine's answer, if any. */
function engineError(answer: string): string | undefined {
  for (const line of answer.split('\n')) {
    try {
      const event = JSON.parse(line) as { error?: string; errorDetail?: { message?: string } };
      if (event.error || event.errorDetail) return event.errorDetail?.message ?? event.error;
    } catch {
      // A line that is not JSON carries no verdict.
    }
  }
  return undefined;
}

async function readBounded(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    if (text.length < maxLoadAnswerBytes) text += chunk.toString();
  }
  return text;
}

/**
 * The image `tag` present: already there, else loaded from `archive`, else built. Says which, and
 * why an archive that was there could not be used.
 */
export async function ensureImageFromArchive(
  docker: Docker,
  tag: string,
  archive: string,
  build: () => Promise<void>,
  say: (line: string) => void,
): Promise<'present' | 'loaded' | 'built'> {
  if (await imageExists(docker, tag)) return 'present';
  const started = performance.now();
  const load = await loadImageArchive(docker, archive, tag);
  if (load.loaded) {
    say(`loaded ${tag} from ${archive} in ${((performance.now() - started) / 1000).toFixed(0)}s`);
    return 'loaded';
  }
  if (!load.absent) say(`${load.reason}; building ${tag} instead`);
  await build();
  return 'built';
}
