// How a sandbox container stopped, told apart for blame (contracts/blame.ts): its own exit or the
// OOM killer at its memory limit are the pack's; a kill through the Docker API while the worker was
// not stopping it (`docker kill`, `docker rm -f`, by an operator or another program) is the
// infrastructure's (blame row `sandbox_killed`). Every kind of sandbox that can be lost this way
// (the TypeScript policy sandbox, the policy sidecar) watches its container through this.
import type Docker from 'dockerode';

export interface ContainerExit {
  exitCode: number | null;
  oomKilled: boolean;
  /** A kill came through the Docker API: the worker's own teardown, or someone outside the sandbox. */
  killed: boolean;
}

/**
 * Whether the container was sent a kill through the Docker API since a moment: the engine's event
 * log records it; the container's own exit and the OOM killer do not. A sandbox process cannot
 * SIGKILL its own container's init (the kernel ignores it inside the PID namespace), so a kill
 * event on a container the worker did not stop came from outside.
 */
async function receivedKill(docker: Docker, containerId: string, sinceSec: number): Promise<boolean> {
  const untilSec = Math.ceil(Date.now() / 1000) + 1;
  const stream = (await docker.getEvents({ since: sinceSec, until: untilSec, filters: { type: ['container'], container: [containerId], event: ['kill'] } })) as NodeJS.ReadableStream;
  let text = '';
  for await (const chunk of stream) {
    text += chunk.toString();
    // One event is enough; the rest of the stream is not needed.
    if (text.includes('"kill"')) {
      (stream as unknown as { destroy?: () => void }).destroy?.();
      return true;
    }
  }
  return false;
}

/** Where to start looking for kill events: taken before the container is created (the engine counts in whole seconds). */
export function exitWatchSince(): number {
  return Math.floor(Date.now() / 1000) - 1;
}

/** Resolves once the started container stops (never rejects): its exit code, the OOM flag, and whether it was sent a kill. */
export function watchContainerExit(docker: Docker, container: Docker.Container, sinceSec: number): Promise<ContainerExit> {
  return container.wait().then(
    async (status: { StatusCode?: number }) => {
      const info = await container.inspect().catch(() => undefined);
      const killed = await receivedKill(docker, container.id, sinceSec).catch(() => false);
      return { exitCode: status.StatusCode ?? null, oomKilled: info?.State?.OOMKilled === true, killed };
    },
    () => ({ exitCode: null, oomKilled: false, killed: false }),
  );
}

/**
 * Lost from outside: sent a kill that was not the OOM killer's. A sandbox process cannot SIGKILL
 * its own container's init, so only the worker or someone outside can; callers ask only about an
 * exit the worker did not cause (before their own stop).
 */
export function killedFromOutside(exit: Pick<ContainerExit, 'killed' | 'oomKilled'>): boolean {
  return exit.killed && !exit.oomKilled;
}
