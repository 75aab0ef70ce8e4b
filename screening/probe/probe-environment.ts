// Where the probe's tool results come from: the scenario's built image when this worker's Docker engine
// has it (or, on a sandbox host, can build it within a bound: the host would build it for the run anyway),
// read once per image id and kept on disk; else the build context (environment/), with the reason
// recorded in the report. The orchestration role runs the probe; images live on sandbox hosts, so an
// orchestration-only worker reads an image only when its engine has one (docs/explanation/coaching.md).
import { readFile } from 'node:fs/promises';
import type Docker from 'dockerode';
import { z } from 'zod';
import { writeFileAtomic } from '../../common/atomic-write.ts';
import { probeImageFilesFile } from '../../common/data-layout.ts';
import { log } from '../../common/log.ts';
import { imageExists } from '../../sandbox/docker-client.ts';
import { buildImage } from '../../sandbox/image-build.ts';
import { scenarioImageTag } from '../../sandbox/scenario-image.ts';
import type { WorkerIdentity } from '../../sandbox/worker-identity.ts';
import { environmentHeads } from './environment-heads.ts';
import { readImageFiles, type EnvironmentFile } from './image-files.ts';

export interface ProbeEnvironment {
  files: EnvironmentFile[];
  /** `image` with the image's id, or `build-context` with why the image was not read. */
  source: { kind: 'image'; imageId: string } | { kind: 'build-context'; reason: string };
}

export interface ProbeEnvironmentOptions {
  docker: Docker;
  baseImageTag: string;
  owner: WorkerIdentity;
  /** Build a missing image (a sandbox host: the run builds it there anyway), waiting at most `buildWaitMs`. */
  build: boolean;
  buildWaitMs?: number;
  /** Where an image's files are kept (default: the probe cache's images folder). */
  fileOf?: (imageId: string) => string;
}

// With the image read (at most imageReadLimits.timeoutMs), within the 30 s per scenario the activity's timeout
// allows beyond its conversations (workflows/evaluation-proxies.ts probeActivities).
const defaultBuildWaitMs = 20_000;

const storedSchema = z.object({
  imageId: z.string(),
  files: z.array(z.object({ name: z.string(), head: z.string(), size: z.number().optional() })).max(1000),
});

/** The files the agent would see in this scenario's environment, and where they were read from. */
export async function probeEnvironment(
  scenario: { name: string; dir: string },
  options: ProbeEnvironmentOptions,
): Promise<ProbeEnvironment> {
  const fallback = async (reason: string): Promise<ProbeEnvironment> => {
    log.info('probe_environment_from_build_context', { scenario: scenario.name, reason });
    return { files: await environmentHeads(scenario.dir), source: { kind: 'build-context', reason } };
  };
  let imageTag: string;
  try {
    const tagged = await scenarioImageTag(options.docker, options.baseImageTag, scenario);
    imageTag = tagged.imageTag;
    if (!(await imageExists(options.docker, imageTag))) {
      if (!options.build) return fallback(`image ${imageTag} is not built on this worker (orchestration only)`);
      const built = buildImage(options.docker, {
        tag: imageTag,
        files: tagged.files,
        buildArgs: { BASE_IMAGE: options.baseImageTag },
        labels: { 'trl.scenario': scenario.name },
      });
      // A build that outlasts the wait goes on for the run, which finds the tag; the probe does not wait for it.
      built.catch((error: Error) =>
        log.warn('probe_image_build_failed', { scenario: scenario.name, error: error.message.slice(0, 300) }),
      );
      const waitMs = options.buildWaitMs ?? defaultBuildWaitMs;
      let timer: NodeJS.Timeout | undefined;
      const done = await Promise.race([
        built.then(() => true),
        new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), waitMs);
        }),
      ]).finally(() => clearTimeout(timer));
      if (!done) return fallback(`image ${imageTag} was still building after ${waitMs / 1000} s`);
    }
  } catch (error) {
    return fallback(`no image: ${(error as Error).message.slice(0, 200)}`);
  }
  try {
    const imageId = (await options.docker.getImage(imageTag).inspect()).Id;
    const file = (options.fileOf ?? probeImageFilesFile)(imageId);
    const kept = await readKept(file, imageId);
    if (kept) return { files: kept, source: { kind: 'image', imageId } };
    const files = await readImageFiles(options.docker, imageTag, { owner: options.owner, scenario: scenario.name });
    await writeFileAtomic(file, `${JSON.stringify({ imageId, files })}\n`).catch((error: Error) =>
      log.warn('probe_image_files_write_failed', { file, error: error.message }),
    );
    return { files, source: { kind: 'image', imageId } };
  } catch (error) {
    return fallback(`reading image ${imageTag} failed: ${(error as Error).message.slice(0, 200)}`);
  }
}

/** What an earlier read kept for this image id; undefined when absent or not trustworthy (read again). */
async function readKept(file: string, imageId: string): Promise<EnvironmentFile[] | undefined> {
  try {
    const parsed = storedSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    return parsed.success && parsed.data.imageId === imageId ? parsed.data.files : undefined;
  } catch {
    return undefined;
  }
}
