// Who owns a container: this host and process. Labels built from it let a new worker remove
// what a crashed one left behind without touching containers of workers still alive.
import os from 'node:os';
import { containerLabels } from './container-labels.ts';

export interface WorkerIdentity {
  host: string;
  pid: number;
  id: string;
}

export function currentWorkerIdentity(): WorkerIdentity {
  const host = os.hostname();
  return { host, pid: process.pid, id: `${host}:${process.pid}` };
}

export function ownershipLabels(identity: WorkerIdentity): Record<string, string> {
  return {
    [containerLabels.managed]: '1',
    [containerLabels.workerId]: identity.id,
    [containerLabels.workerPid]: String(identity.pid),
    [containerLabels.workerHost]: identity.host,
  };
}
