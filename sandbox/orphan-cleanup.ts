// Removes containers whose owning worker process on this host is gone (crashed or killed).
import type Docker from 'dockerode';
import { containerLabels } from './container-labels.ts';
import { log } from '../common/log.ts';
import type { WorkerIdentity } from './worker-identity.ts';
import { processAlive } from '../common/process-alive.ts';
import { removeSnapshot, snapshotLabel } from './agent-snapshot.ts';

/** True when labels name a worker on this host whose process is gone. */
export function ownedByDeadWorker(labels: Record<string, string>, self: WorkerIdentity): boolean {
  if (labels[containerLabels.workerHost] !== self.host) return false;
  const pid = Number(labels[containerLabels.workerPid]);
  return pid !== self.pid && !(Number.isInteger(pid) && pid > 0 && processAlive(pid));
}

/**
 * Removes what dead workers of this host left: containers, and snapshot images never verified. It
 * is a sweep at start, so it never stops the start: several workers starting at once sweep the
 * same orphans (Docker answers the later ones 409, "removal already in progress", or 404), and an
 * orphan that cannot be removed now is logged and left for the next sweep.
 */
export async function removeOrphanContainers(docker: Docker, self: WorkerIdentity): Promise<string[]> {
  const containers = await docker.listContainers({
    all: true,
    filters: { label: [`${containerLabels.managed}=1`, `${containerLabels.workerHost}=${self.host}`] },
  });
  const removed: string[] = [];
  for (const info of containers) {
    if (!ownedByDeadWorker(info.Labels, self)) continue;
    const what = {
      container: info.Id.slice(0, 12),
      ownerPid: Number(info.Labels[containerLabels.workerPid]),
      scenario: info.Labels[containerLabels.scenario],
    };
    if (await removeOrphan(what, () => docker.getContainer(info.Id).remove({ force: true }))) {
      removed.push(info.Id);
      log.info('orphan_container_removed', what);
    }
  }
  // Snapshot images of agent containers (tasks without agent_outputs) a dead worker never verified.
  const snapshots = await docker.listImages({
    filters: { label: [`${snapshotLabel}=1`, `${containerLabels.workerHost}=${self.host}`] },
  });
  for (const image of snapshots) {
    if (!ownedByDeadWorker(image.Labels ?? {}, self)) continue;
    const what = { image: image.Id.slice(7, 19), scenario: image.Labels?.[containerLabels.scenario] };
    let all = true;
    for (const tag of image.RepoTags ?? [])
      all = (await removeOrphan({ ...what, tag }, () => removeSnapshot(docker, tag))) && all;
    if (all) log.info('orphan_snapshot_removed', what);
  }
  return removed;
}

/** One orphan's removal: true when this call removed it; false when another sweep has it, it is gone, or Docker refused
 * (logged). */
async function removeOrphan(what: Record<string, unknown>, remove: () => Promise<unknown>): Promise<boolean> {
  try {
    await remove();
    return true;
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    // 404: already gone. 409: a container another sweep is removing, or an image still in use; either way the next
    // sweep sees it again.
    if (status === 404 || status === 409)
      log.debug('orphan_left_for_later', { ...what, status, reason: status === 404 ? 'gone' : 'in removal or in use' });
    else log.warn('orphan_removal_failed', { ...what, error: error instanceof Error ? error.message : String(error) });
    return false;
  }
}

/** Containers created by this project that still exist (for tests and `trl doctor`-style checks). */
export async function listManagedContainers(
  docker: Docker,
  filterLabels: string[] = [],
): Promise<Docker.ContainerInfo[]> {
  return docker.listContainers({ all: true, filters: { label: [`${containerLabels.managed}=1`, ...filterLabels] } });
}
