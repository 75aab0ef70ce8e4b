// receivedKill on the real engine: a container sent `docker kill` has a kill event; one whose
// process exits with 137 by itself has none.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type Docker from 'dockerode';
import { createDockerClient } from './docker-client.ts';
import { ensureBaseImage } from '../infra/base-image.ts';
import { receivedKill } from './kill-events.ts';

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

async function run(command: string[]): Promise<{ container: Docker.Container; sinceSec: number }> {
  const sinceSec = Math.floor(Date.now() / 1000) - 1;
  const container = await docker.createContainer({ Image: image, Cmd: command, Labels: { 'trl.managed': '1', 'trl.role': 'kill-events-test' }, HostConfig: { NetworkMode: 'none' } });
  created.push(container);
  await container.start();
  return { container, sinceSec };
}

test('a docker kill is seen; an exit with 137 of its own is not', async () => {
  const killed = await run(['sleep', '60']);
  await killed.container.kill();
  await killed.container.wait();
  assert.equal(await receivedKill(docker, killed.container.id, killed.sinceSec), true);

  const exited = await run(['sh', '-c', 'exit 137']);
  assert.equal((await exited.container.wait()).StatusCode, 137);
  assert.equal(await receivedKill(docker, exited.container.id, exited.sinceSec), false);
});
