// The sweep at a worker's start, against a stand-in for Docker's API (the real sweep runs in the
// worker-crash suites): it never throws for one orphan, so several workers can start at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type Docker from 'dockerode';
import { containerLabels } from './container-labels.ts';
import { removeOrphanContainers } from './orphan-cleanup.ts';
import type { WorkerIdentity } from './worker-identity.ts';

const self: WorkerIdentity = { host: 'host-a', pid: process.pid, id: `host-a/${process.pid}` };
// A pid above the kernel's limit names no process.
const deadPid = 4_194_305;

function dockerWith(outcomes: Record<string, () => Promise<void>>, alive: string[] = []) {
  const labels = (pid: number) => ({
    [containerLabels.managed]: '1',
    [containerLabels.workerHost]: 'host-a',
    [containerLabels.workerPid]: String(pid),
  });
  const attempted: string[] = [];
  const docker = {
    listContainers: async () => [
      ...Object.keys(outcomes).map((Id) => ({ Id, Labels: labels(deadPid) })),
      ...alive.map((Id) => ({ Id, Labels: labels(process.pid) })),
    ],
    getContainer: (id: string) => ({
      remove: async () => {
        attempted.push(id);
        await outcomes[id]!();
      },
    }),
    listImages: async () => [],
  } as unknown as Docker;
  return { docker, attempted };
}

const refused = (statusCode: number, message: string) => async () => {
  throw Object.assign(new Error(message), { statusCode });
};

test("an orphan another sweep is removing (409) or has removed (404) is not this sweep's, and no error", async () => {
  const { docker, attempted } = dockerWith(
    {
      mine: async () => undefined,
      racing: refused(409, 'removal of container racing is already in progress'),
      gone: refused(404, 'no such container'),
    },
    ['live'],
  );
  assert.deepEqual(await removeOrphanContainers(docker, self), ['mine']);
  assert.deepEqual(attempted.sort(), ['gone', 'mine', 'racing'], "a live worker's container is never touched");
});

test('a container Docker refuses to remove is left for the next sweep; the others still go and the start goes on', async () => {
  const { docker } = dockerWith({
    stuck: refused(500, 'driver failed to remove root filesystem'),
    next: async () => undefined,
  });
  assert.deepEqual(await removeOrphanContainers(docker, self), ['next']);
});
