// Removes containers whose owning worker process on this host is gone (crashed or killed).
import type Docker from 'dockerode';
import { containerLabels } from './container-labels.ts';
import { log } from '../common/log.ts';
import type { WorkerIdentity } from './worker-identity.ts';
import { processAlive } from '../common/process-alive.ts';
import { removeSnapshot, snapshotLabel } from './agent-snapshot.ts';

/** True when a process with this pid exists on this host (EPERM: it exists, owned by another user). */
/** True when labels name a worker on this host whose process is gone. */
export function ownedByDeadWorker(labels: Record<string, string>, self: WorkerIdentity): boolean {
  if (labels[containerLabels.workerHost] !== self.host) return false;
  const pid = Number(labels[containerLabels.workerPid]);
  return pid !== self.pid && !(Number.isInteger(pid) && pid > 0 && processAlive(pid));
}

export async function removeOrphanContainers(docker: Docker, self: WorkerIdentity): Promise<string[]> {
  const containers = await docker.listContainers({
    all: true,
    filters: { label: [`${containerLabels.managed}=1`, `${containerLabels.workerHost}=${self.host}`] },
  });
  const removed: string[] = [];
  for (const info of containers) {
    const pid = Number(info.Labels[containerLabels.workerPid]);
    if (!ownedByDeadWorker(info.Labels, self)) continue;
    try {
      await docker.getContainer(info.Id).remove({ force: true });
      removed.push(info.Id);
      log.info('orphan_container_removed', { container: info.Id.slice(0, 12), ownerPid: pid, scenario: info.Labels[containerLabels.scenario] });
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode !== 404) throw error;
    }
  }
  // Snapshot images of agent containers (tasks without agent_outputs) a dead worker never verified.
  const snapshots = await docker.listImages({ filters: { label: [`${snapshotLabel}=1`, `${containerLabels.workerHost}=${self.host}`] } });
  for (const image of snapshots) {
    if (!ownedByDeadWorker(image.Labels ?? {}, self)) continue;
    for (const tag of image.RepoTags ?? []) await removeSnapshot(docker, tag);
    log.info('orphan_snapshot_removed', { image: image.Id.slice(7, 19), scenario: image.Labels?.[containerLabels.scenario] });
  }
  return removed;
}

/** Containers created by this project that still exist (for tests and `trl doctor`-style checks). */
export async function listManagedContainers(docker: Docker, filterLabels: string[] = []): Promise<Docker.ContainerInfo[]> {
  return docker.listContainers({ all: true, filters: { label: [`${containerLabels.managed}=1`, ...filterLabels] } });
}
