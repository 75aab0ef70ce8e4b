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
 * Whether the engine's event log has `event` for the container between two moments (whole seconds;
 * an `until` still ahead waits for it). A kill through the Docker API is logged as `kill`; the
 * container's own exit and the OOM killer are not. A sandbox process cannot SIGKILL its own
 * container's init (the kernel ignores it inside the PID namespace), so a kill event on a container
 * the worker did not stop came from outside.
 */
async function sawEvent(
  docker: Docker,
  containerId: string,
  event: 'kill' | 'oom',
  sinceSec: number,
  untilSec: number,
): Promise<boolean> {
  const stream = (await docker.getEvents({
    since: sinceSec,
    until: untilSec,
    filters: { type: ['container'], container: [containerId], event: [event] },
  })) as NodeJS.ReadableStream;
  let text = '';
  for await (const chunk of stream) {
    text += chunk.toString();
    // One event is enough; the rest of the stream is not needed.
    if (text.includes(`"${event}"`)) {
      (stream as unknown as { destroy?: () => void }).destroy?.();
      return true;
    }
  }
  return false;
}

const nowSec = () => Math.ceil(Date.now() / 1000);

// The engine can record a container's exit before its OOM event (cgroup v2: two events from
// containerd, handled in turn), so right after the exit `OOMKilled` may still be false. A SIGKILL
// exit that no kill explains waits this long for the OOM event before it is called the container's own.
const oomEventGraceSec = 2;

/** Where to start looking for kill events: taken before the container is created (the engine counts in whole seconds).
 * */
export function exitWatchSince(): number {
  return Math.floor(Date.now() / 1000) - 1;
}

/** Resolves once the started container stops (never rejects): its exit code, the OOM flag, and whether it was sent a
 * kill. */
export function watchContainerExit(
  docker: Docker,
  container: Docker.Container,
  sinceSec: number,
): Promise<ContainerExit> {
  return container.wait().then(
    async (status: { StatusCode?: number }) => {
      const info = await container.inspect().catch(() => undefined);
      const killed = await sawEvent(docker, container.id, 'kill', sinceSec, nowSec() + 1).catch(() => false);
      let oomKilled = info?.State?.OOMKilled === true;
      if (!oomKilled && !killed && status.StatusCode === 137) {
        oomKilled = await sawEvent(docker, container.id, 'oom', sinceSec, nowSec() + oomEventGraceSec).catch(
          () => false,
        );
      }
      return { exitCode: status.StatusCode ?? null, oomKilled, killed };
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
