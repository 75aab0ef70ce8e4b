// watchContainerExit on the real engine: who ended a container is told apart — a `docker kill`
// from outside (a kill event), its own exit with 137 and the OOM killer at its memory limit (none).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type Docker from 'dockerode';
import { createDockerClient } from './docker-client.ts';
import { ensureBaseImage } from '../infra/base-image.ts';
import { containerLabels } from './container-labels.ts';
import { limitsHostConfig } from './container-limits.ts';
import { exitWatchSince, killedFromOutside, watchContainerExit } from './container-exit.ts';

let docker: Docker;
let image: string;
const created: Docker.Container[] = [];

before(async () => {
  docker = createDockerClient();
  image = await ensureBaseImage(docker);
});
after(async () => {
  for (const container of created) await container.remove({ force: true }).catch(() => undefined);
});

async function started(command: string[], memoryMb = 64) {
  const sinceSec = exitWatchSince();
  const container = await docker.createContainer({
    Image: image,
    Cmd: command,
    Labels: { [containerLabels.managed]: '1', [containerLabels.role]: 'container-exit-test' },
    HostConfig: { NetworkMode: 'none', ...limitsHostConfig({ memoryMb, cpus: 1, pidsLimit: 32 }) },
  });
  created.push(container);
  await container.start();
  return { container, exit: watchContainerExit(docker, container, sinceSec) };
}

test('a docker kill from outside is told apart from an exit with 137 and from the OOM killer', async () => {
  const killed = await started(['sleep', '60']);
  await killed.container.kill();
  const killedExit = await killed.exit;
  assert.equal(killedExit.killed, true);
  assert.equal(killedFromOutside(killedExit), true);

  const ownExit = await (await started(['sh', '-c', 'exit 137'])).exit;
  assert.deepEqual(ownExit, { exitCode: 137, oomKilled: false, killed: false });
  assert.equal(killedFromOutside(ownExit), false);

  const oom = await (await started(['python3', '-c', 'x = bytearray(512 * 1024 * 1024)'], 32)).exit;
  assert.equal(oom.oomKilled, true);
  assert.equal(killedFromOutside(oom), false);
});
