// Image archives on the real engine, with a one-file image of the test's own (the base image's
// archive is 243 MB: `trl images save` on it is measured in docs/figures/fresh-clone.md, not here). Saved, removed and
// loaded back it is the same image; a truncated archive, one holding another image, and a missing
// file are each reported with a reason, never thrown, and the caller then builds.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createDockerClient, imageExists } from '../../sandbox/docker-client.ts';
import { bootstrap } from '../../infra/bootstrap.ts';
import { runCommand } from '../../common/run-command.ts';
import { ensureImageFromArchive, loadImageArchive, saveImageArchive } from '../../infra/image-archive.ts';

const docker = createDockerClient();
const repository = 'trl-test-archive';
const tag = `${repository}:${process.pid}`;
const otherTag = `${repository}:other-${process.pid}`;
const companionTag = `${repository}:companion-${process.pid}`;

/** A one-file image made with `docker import`, as the base image's root filesystem is. */
async function importTinyImage(dir: string, name: string, content: string): Promise<string> {
  const root = await mkdtemp(path.join(dir, 'rootfs-'));
  await writeFile(path.join(root, 'hello.txt'), content);
  await runCommand('sh', ['-c', `tar -C "${root}" -c . | docker import - ${name}`]);
  return (await docker.getImage(name).inspect()).Id;
}

async function removeImage(name: string): Promise<void> {
  await docker
    .getImage(name)
    .remove({ force: true })
    .catch(() => undefined);
}

describe('image archives', () => {
  let dir: string;
  let imageId: string;
  let archive: string;

  before(async () => {
    await bootstrap(docker);
    dir = await mkdtemp(path.join(os.tmpdir(), 'trl-image-archive-'));
    imageId = await importTinyImage(dir, tag, `made by ${process.pid}`);
    archive = path.join(dir, 'images', 'tiny.tar.gz');
  });

  after(async () => {
    await Promise.all([removeImage(tag), removeImage(otherTag), removeImage(companionTag)]);
    await rm(dir, { recursive: true, force: true });
  });

  test('saved, removed and loaded back, they are the same images; the archive is gzip and written whole', async () => {
    const companionId = await importTinyImage(dir, companionTag, 'built on the first, in the same archive');
    const { bytes } = await saveImageArchive(docker, [tag, companionTag], archive);
    const head = (await readFile(archive)).subarray(0, 2);
    assert.deepEqual([...head], [0x1f, 0x8b], 'a gzip stream');
    assert.ok(bytes > 0);
    await Promise.all([removeImage(tag), removeImage(companionTag)]);
    assert.equal(await imageExists(docker, tag), false);
    assert.deepEqual(await loadImageArchive(docker, archive, tag), { loaded: true });
    assert.equal((await docker.getImage(tag).inspect()).Id, imageId);
    assert.equal(
      (await docker.getImage(companionTag).inspect()).Id,
      companionId,
      'every image of the archive is loaded',
    );
  });

  test('a missing, truncated or foreign archive is a reason, not an exception', async () => {
    const missing = await loadImageArchive(docker, path.join(dir, 'none.tar.gz'), tag);
    assert.equal(missing.loaded, false);
    assert.match((missing as { reason: string }).reason, /no archive at/);
    assert.equal((missing as { absent: boolean }).absent, true);

    const whole = await readFile(archive);
    const truncated = path.join(dir, 'truncated.tar.gz');
    await writeFile(truncated, whole.subarray(0, Math.floor(whole.length / 2)));
    await removeImage(tag);
    const cut = await loadImageArchive(docker, truncated, tag);
    assert.equal(cut.loaded, false, 'half an archive does not give the image');
    assert.equal(await imageExists(docker, tag), false);

    await importTinyImage(dir, otherTag, 'another image');
    const foreign = path.join(dir, 'foreign.tar.gz');
    await saveImageArchive(docker, [otherTag], foreign);
    const wrong = await loadImageArchive(docker, foreign, tag);
    assert.equal(wrong.loaded, false);
    assert.match((wrong as { reason: string }).reason, new RegExp(`does not hold ${tag}`));

    const garbage = path.join(dir, 'garbage.tar.gz');
    await writeFile(garbage, 'not an archive at all');
    assert.equal((await loadImageArchive(docker, garbage, tag)).loaded, false);
  });

  test('the image is kept when present, loaded when its archive is there, built when the archive cannot serve', async () => {
    const said: string[] = [];
    let builds = 0;
    const build = async () => {
      builds += 1;
      await importTinyImage(dir, tag, `built by ${process.pid}`);
    };
    await removeImage(tag);
    assert.equal(await ensureImageFromArchive(docker, tag, archive, build, (line) => said.push(line)), 'loaded');
    assert.equal(builds, 0);
    assert.equal(await ensureImageFromArchive(docker, tag, archive, build, (line) => said.push(line)), 'present');
    await removeImage(tag);
    const truncated = path.join(dir, 'truncated.tar.gz');
    assert.equal(await ensureImageFromArchive(docker, tag, truncated, build, (line) => said.push(line)), 'built');
    assert.equal(builds, 1);
    assert.ok(
      said.some((line) => line.includes(truncated) && line.includes('building')),
      said.join('\n'),
    );
    await removeImage(tag);
    assert.equal(
      await ensureImageFromArchive(docker, tag, path.join(dir, 'none.tar.gz'), build, (line) => said.push(line)),
      'built',
    );
    assert.equal(builds, 2);
    assert.ok(!said.some((line) => line.includes('none.tar.gz')), 'no archive to try is nothing to say');
  });
});
