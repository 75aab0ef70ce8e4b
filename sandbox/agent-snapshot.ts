// Verification from a snapshot (a task without agent_outputs, as Harbor verifies): the agent's
// container is stopped — every process in it dies — and committed as an image the verifier starts
// a fresh container from. Links, owners, modes and deletions survive; the tests were never in it.
import type Docker from 'dockerode';
import type { ContainerSession } from './container-session.ts';
import { containerLabels } from './container-labels.ts';
import { ownershipLabels, type WorkerIdentity } from './worker-identity.ts';

export const snapshotRepository = 'trl-snapshot';
/** Marks snapshot images, so the ones a dead worker left can be found and removed. */
export const snapshotLabel = 'trl.snapshot';

export interface AgentSnapshot {
  imageTag: string;
  /** What the agent's run added to the scenario image (the container's writable layer). */
  sizeBytes: number;
  commitMs: number;
}

/** Stops the agent's container and commits it; the session stays removable by its owner. */
export async function snapshotAgentContainer(
  docker: Docker,
  session: ContainerSession,
  request: { owner: WorkerIdentity; scenario: string; tag: string },
): Promise<AgentSnapshot> {
  await session.container.kill().catch((error: { statusCode?: number }) => {
    // 409: already stopped (a deadline or a cancellation killed it).
    if (error.statusCode !== 409) throw error;
  });
  await session.container.wait();
  const started = performance.now();
  const labels = {
    ...ownershipLabels(request.owner),
    [snapshotLabel]: '1',
    [containerLabels.scenario]: request.scenario,
  };
  // The container's own command and user stay as they were; the verifier sets its own.
  await session.container.commit({
    repo: snapshotRepository,
    tag: request.tag,
    comment: `agent snapshot of ${request.scenario}`,
    changes: Object.entries(labels).map(([name, value]) => `LABEL ${name}=${JSON.stringify(value)}`),
    pause: false,
  });
  const commitMs = Math.round(performance.now() - started);
  const imageTag = `${snapshotRepository}:${request.tag}`;
  const inspected = (await docker.getImage(imageTag).inspect()) as { Size?: number };
  const parent = (await docker.getImage(session.spec.image).inspect()) as { Size?: number };
  return { imageTag, sizeBytes: Math.max(0, (inspected.Size ?? 0) - (parent.Size ?? 0)), commitMs };
}

/** Removes a snapshot image; one already gone is fine. */
export async function removeSnapshot(docker: Docker, imageTag: string): Promise<void> {
  await docker
    .getImage(imageTag)
    .remove({ force: true })
    .catch((error: { statusCode?: number }) => {
      if (error.statusCode !== 404) throw error;
    });
}

/** A snapshot tag: Docker tags allow [A-Za-z0-9_.-], at most 128 characters. */
export function snapshotTag(parts: string[]): string {
  return (
    parts
      .join('-')
      .replace(/[^A-Za-z0-9_.-]+/g, '_')
      .slice(-120)
      .replace(/^[.-]+/, '') || 'snapshot'
  );
}
