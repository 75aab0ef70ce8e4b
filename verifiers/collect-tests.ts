// Counting a task's tests the way pytest does, inside the scenario's own image and never on the host:
// collection imports the test modules, so it runs task code. A fresh container with no network, the
// tests copied in read-only as root's, pytest run as `nobody` under a deadline with bounded output.
// What pytest cannot collect (an import error, a task not written for pytest, a flood) falls back
// to the static count (catalog/count-tests.ts) with a note saying why.
import path from 'node:path';
import type Docker from 'dockerode';
import { ContainerSession } from '../sandbox/container-session.ts';
import { packDirectory } from '../sandbox/tar-archive.ts';
import type { WorkerIdentity } from '../sandbox/worker-identity.ts';
import { testsInFolder } from '../catalog/count-tests.ts';

export interface CollectedTests {
  count: number;
  /** `pytest`: pytest's own collection in the container; `static`: read from the source. */
  source: 'pytest' | 'static';
  notes: string[];
  wallMs: number;
}

const collectionDeadlineMs = 60_000;
const collectionOutputBytes = 64 * 1024;
const collectionMemoryMb = 512;

/**
 * pytest's `--collect-only -qq` output: one `FILE: N` line per test module. Exit 0 is a clean
 * collection, 5 is "no tests collected", anything else (2: errors while importing) is not a count.
 */
export function parseCollectOutput(stdout: string, exitCode: number | null): { count: number } | { error: string } {
  if (exitCode === 5) return { count: 0 };
  if (exitCode !== 0) {
    const reason = stdout
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => /^ERROR |Interrupted/.test(line))
      .slice(0, 3)
      .join('; ');
    return { error: `pytest collection exited ${exitCode ?? 'killed'}${reason ? `: ${reason.slice(0, 300)}` : ''}` };
  }
  let count = 0;
  for (const line of stdout.split('\n')) {
    const match = /^(\S.*): (\d+)$/.exec(line.trim());
    if (match) count += Number(match[2]);
  }
  return { count };
}

export async function collectTestsInContainer(request: {
  docker: Docker;
  imageTag: string;
  scenario: { name: string; dir: string };
  owner: WorkerIdentity;
  workflowId: string;
  env?: string[];
  onTick?: () => void;
}): Promise<CollectedTests> {
  const started = performance.now();
  const testsDir = path.join(request.scenario.dir, 'tests');
  const fallback = async (note: string): Promise<CollectedTests> => ({
    count: await testsInFolder(testsDir).catch(() => 0),
    source: 'static',
    notes: [`${note}; tests counted from the source instead`],
    wallMs: Math.round(performance.now() - started),
  });
  const session = await ContainerSession.start(request.docker, {
    image: request.imageTag,
    role: 'collector',
    scenario: request.scenario.name,
    workflowId: request.workflowId,
    cpus: 1,
    memoryMb: collectionMemoryMb,
    owner: request.owner,
    ...(request.env?.length ? { env: request.env } : {}),
  });
  try {
    await session.upload(await packDirectory(testsDir, 'tests'), '/');
    const deadlineMs = performance.now() + collectionDeadlineMs;
    await session.exec({
      command: ['sh', '-c', 'chown -R root:root /tests && chmod -R u+rwX,go+rX,go-w /tests'],
      deadlineMs,
    });
    const result = await session.exec({
      command: ['python3', '-m', 'pytest', '--collect-only', '-qq', '-p', 'no:cacheprovider', '/tests'],
      user: 'nobody',
      workdir: '/tmp',
      env: ['PYTHONDONTWRITEBYTECODE=1'],
      deadlineMs,
      maxOutputBytes: collectionOutputBytes,
      ...(request.onTick ? { onTick: request.onTick } : {}),
    });
    if (result.timedOut) return await fallback(`pytest collection ran past ${collectionDeadlineMs / 1000}s`);
    if (result.outputBytes > collectionOutputBytes)
      return await fallback(
        `pytest collection printed ${result.outputBytes} bytes, past the ${collectionOutputBytes} read`,
      );
    const parsed = parseCollectOutput(result.stdout, result.exitCode);
    if ('error' in parsed) return await fallback(parsed.error);
    if (parsed.count === 0) return await fallback('pytest collected no tests (the task may not use pytest)');
    return { count: parsed.count, source: 'pytest', notes: [], wallMs: Math.round(performance.now() - started) };
  } finally {
    await session.remove();
  }
}
