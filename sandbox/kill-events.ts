// Whether a container was sent a kill through the Docker API (`docker kill`, or `docker rm -f`)
// since a moment: the engine's event log records it; the container's own exit and the OOM killer
// do not. A sandbox process cannot SIGKILL its own container's init (the kernel ignores it inside the
// PID namespace), so a kill event on a container the worker did not stop came from outside.
import type Docker from 'dockerode';

export async function receivedKill(docker: Docker, containerId: string, sinceSec: number): Promise<boolean> {
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
