// What the agent would really find in a scenario's environment, read from the built scenario image: the
// files under the image's working directory (its listing with real sizes, and the head of each), as
// the probe's tool results. The image holds no tests or solution (they are copied in only to verify).
// A throwaway container reads them: no network, read-only root, non-root, no capabilities, small
// limits, bounded in depth, count, bytes and time. Pure parsing aside, this needs a Docker engine.
import type Docker from 'dockerode';
import { containerLabels } from '../../sandbox/container-labels.ts';
import { limitsHostConfig } from '../../sandbox/container-limits.ts';
import { ownershipLabels, type WorkerIdentity } from '../../sandbox/worker-identity.ts';
import { demuxDockerLog } from '../../policy/sidecar/sidecar-container.ts';

/** A file the agent would see: its path under the working directory, its size, the head of its text. */
export interface EnvironmentFile {
  name: string;
  head: string;
  size?: number;
}

export const imageReadLimits = {
  /** Directory levels below the working directory. */
  maxDepth: 4,
  /** Files listed (and read), in path order. */
  maxFiles: 40,
  /** Bytes read from the head of each file. */
  headBytes: 6000,
  /** Characters of each head kept (as the build-context heads). */
  headChars: 1500,
  /** The container's wall-clock limit: killed then, and what it printed so far is not used. */
  timeoutMs: 10_000,
} as const;

const recordMark = '\u001e';
const fieldMark = '\u001f';

/**
 * The reader, POSIX sh: files under the working directory (`.git` internals pruned: an agent reads a
 * repository through git, and its objects would fill the count), sorted, each as
 * RS name US size US head-bytes.
 */
export function readerScript(limits = imageReadLimits): string {
  return [
    'cd "${1:-/}" 2>/dev/null || exit 3',
    `find . -mindepth 1 -maxdepth ${limits.maxDepth} -name .git -prune -o -type f -print 2>/dev/null | LC_ALL=C sort | head -n ${limits.maxFiles} |`,
    'while IFS= read -r f; do',
    '  s=$(stat -c %s "$f" 2>/dev/null || echo 0)',
    `  printf '\\036%s\\037%s\\037' "\${f#./}" "$s"`,
    `  head -c ${limits.headBytes} "$f" 2>/dev/null`,
    'done',
  ].join('\n');
}

/** The reader's output as files; a head with a NUL byte is a binary file. Pure. */
export function parseReaderOutput(text: string, limits = imageReadLimits): EnvironmentFile[] {
  const files: EnvironmentFile[] = [];
  for (const record of text.split(recordMark).slice(1)) {
    const first = record.indexOf(fieldMark);
    const second = first < 0 ? -1 : record.indexOf(fieldMark, first + 1);
    if (second < 0) continue;
    const name = record.slice(0, first);
    const size = Number(record.slice(first + 1, second));
    const head = record.slice(second + 1);
    files.push({
      name,
      size: Number.isFinite(size) ? size : head.length,
      head: head.includes('\u0000') ? '(binary file)' : head.slice(0, limits.headChars),
    });
    if (files.length >= limits.maxFiles) break;
  }
  return files;
}

/** The image's files as the agent would see them; throws when the container cannot run or overruns its time. */
export async function readImageFiles(
  docker: Docker,
  image: string,
  options: { owner: WorkerIdentity; scenario: string; limits?: typeof imageReadLimits },
): Promise<EnvironmentFile[]> {
  const limits = options.limits ?? imageReadLimits;
  const inspected = await docker.getImage(image).inspect();
  const workingDir = inspected.Config?.WorkingDir || '/';
  const container = await docker.createContainer({
    Image: image,
    Entrypoint: ['/bin/sh', '-c', readerScript(limits), 'probe-reader', workingDir],
    Cmd: [],
    User: '65534:65534',
    NetworkDisabled: true,
    Labels: {
      ...ownershipLabels(options.owner),
      [containerLabels.role]: 'probe-image-reader',
      [containerLabels.scenario]: options.scenario,
    },
    HostConfig: {
      NetworkMode: 'none',
      ReadonlyRootfs: true,
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      ...limitsHostConfig({ memoryMb: 128, cpus: 0.5, pidsLimit: 32 }),
      LogConfig: { Type: 'json-file', Config: { 'max-size': '1m', 'max-file': '1' } },
    },
  });
  try {
    await container.start();
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      container.wait().then((state: { StatusCode: number }) => ({ exit: state.StatusCode })),
      new Promise<{ exit: 'timeout' }>((resolve) => {
        timer = setTimeout(() => resolve({ exit: 'timeout' }), limits.timeoutMs);
      }),
    ]).finally(() => clearTimeout(timer));
    if (outcome.exit === 'timeout') throw new Error(`reading the image took over ${limits.timeoutMs / 1000} s`);
    if (outcome.exit !== 0)
      throw new Error(`the image reader exited ${outcome.exit} (working directory ${workingDir})`);
    const raw = (await container.logs({ stdout: true, stderr: false, follow: false })) as unknown as Buffer;
    return parseReaderOutput(demuxDockerLog(Buffer.isBuffer(raw) ? raw : Buffer.from(String(raw))), limits);
  } finally {
    await container.remove({ force: true }).catch(() => undefined);
  }
}
