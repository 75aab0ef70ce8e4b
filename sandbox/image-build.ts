// `docker build` through dockerode from an in-memory context; build errors surface with the log tail.
import type Docker from 'dockerode';
import { packFiles, type ArchiveFile } from './tar-archive.ts';

export class ImageBuildError extends Error {
  /** A step of the Dockerfile failed (a RUN's non-zero exit, a COPY of a missing file, a parse error): the task's
   * failure, not the engine's. */
  readonly stepFailed: boolean;
  constructor(
    readonly tag: string,
    readonly logTail: string,
    failure = '',
  ) {
    super(`docker build of ${tag} failed:\n${logTail}`);
    this.name = 'ImageBuildError';
    this.stepFailed = dockerfileStepFailure.test(failure);
  }
}

/** Messages of the engine that blame a step of the Dockerfile (legacy builder and BuildKit wordings). */
const dockerfileStepFailure =
  /returned a non-zero code|did not complete successfully|COPY failed|ADD failed|failed to compute cache key|Dockerfile parse error|unknown instruction|no source files were specified|failed to process|pull access denied|manifest unknown|repository does not exist/i;

export async function buildImage(
  docker: Docker,
  request: {
    tag: string;
    files: ArchiveFile[];
    /** The Dockerfile's path in the context; Docker's default (Dockerfile) when absent. */
    dockerfile?: string;
    buildArgs?: Record<string, string>;
    labels?: Record<string, string>;
    onProgress?: () => void;
  },
): Promise<void> {
  const context = await packFiles(request.files);
  const stream = await docker.buildImage(context as unknown as NodeJS.ReadableStream, {
    t: request.tag,
    ...(request.dockerfile && request.dockerfile !== 'Dockerfile' ? { dockerfile: request.dockerfile } : {}),
    buildargs: request.buildArgs ?? {},
    labels: request.labels ?? {},
    rm: true,
    forcerm: true,
  });
  let logTail = '';
  let failure: string | undefined;
  await new Promise<void>((resolve, reject) => {
    docker.modem.followProgress(
      stream,
      (error) => (error ? reject(error) : resolve()),
      (event: { stream?: string; error?: string; errorDetail?: { message?: string } }) => {
        if (event.stream) logTail = (logTail + event.stream).slice(-8000);
        if (event.error) failure = event.errorDetail?.message ?? event.error;
        request.onProgress?.();
      },
    );
  });
  if (failure) throw new ImageBuildError(request.tag, `${logTail}\n${failure}`, failure);
}
