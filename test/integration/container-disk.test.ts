// Disk and output bounds on real containers: logs rotate, the writable layer is measured and a
// breach is reported, and hostile outputs (oversized, 30 k empty files, names with newlines) end
// as a few notes while this process carries on.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type Docker from 'dockerode';
import { ensureBaseImage } from '../../infra/base-image.ts';
import { createDockerClient } from '../../sandbox/docker-client.ts';
import { ContainerSession } from '../../sandbox/container-session.ts';
import { collectAgentOutputs } from '../../sandbox/agent-outputs.ts';
import { storageOptSupported } from '../../sandbox/container-limits.ts';
import { watchDisk } from '../../sandbox/disk-watchdog.ts';
import { currentWorkerIdentity } from '../../sandbox/worker-identity.ts';

describe('container disk and output bounds', () => {
  let docker: Docker;
  let session: ContainerSession;
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown): void => void uncaught.push(error);

  before(async () => {
    process.on('uncaughtException', onUncaught);
    docker = createDockerClient();
    const image = await ensureBaseImage(docker);
    session = await ContainerSession.start(docker, {
      image,
      role: 'agent',
      scenario: 'container-disk',
      workflowId: `container-disk-${process.pid}`,
      cpus: 1,
      memoryMb: 512,
      owner: currentWorkerIdentity(),
      storageBytes: 256 * 1024 * 1024,
    });
  });
  after(async () => {
    await session?.remove();
    process.off('uncaughtException', onUncaught);
  });

  const run = (script: string) =>
    session.exec({ command: ['sh', '-c', script], deadlineMs: performance.now() + 120_000 });

  test('the container log is bounded; the storage cap is applied or its absence is said', async (t) => {
    const info = await session.container.inspect();
    assert.equal(info.HostConfig.LogConfig?.Type, 'json-file');
    assert.deepEqual(info.HostConfig.LogConfig?.Config, { 'max-size': '1m', 'max-file': '2' });
    let reason = '';
    const supported = await storageOptSupported(docker, info.Config.Image, (text) => (reason = text));
    t.diagnostic(`StorageOpt size: ${supported ? 'applied' : 'not supported here'} (${reason || 'cached'})`);
    assert.equal(Boolean((info.HostConfig as { StorageOpt?: Record<string, string> }).StorageOpt?.size), supported);
  });

  test('hostile outputs end as a few notes: oversized, 30 k empty files, a name with a newline', {
    timeout: 300_000,
  }, async () => {
    const made = await run(
      'mkdir -p /app/big /app/many /app/odd && head -c 3000000 /dev/zero > /app/big/blob && cd /app/many && seq 1 30000 | xargs touch && printf x > "/app/odd/evil\nname" && printf ok > /app/odd/fine',
    );
    assert.equal(made.exitCode, 0, made.stderr);
    const started = performance.now();
    const oversized = await collectAgentOutputs(session, ['/app/big'], 2 * 1024 * 1024);
    assert.deepEqual(oversized.notes, ['/app/big: larger than the 2097152-byte output limit; not copied']);
    const collected = await collectAgentOutputs(session, ['/app/many', '/app/odd'], 64 * 1024 * 1024);
    t_diag(`collected in ${Math.round(performance.now() - started)} ms: ${JSON.stringify(collected.notes)}`);
    assert.equal(collected.fileCount, 1); // /app/odd/fine
    assert.match(collected.notes.join('\n'), /\/app\/many: more than the 20000-entry output limit/);
    assert.match(collected.notes.join('\n'), /control characters in the name/);
    assert.ok(Buffer.byteLength(JSON.stringify(collected)) < 64 * 1024 + collected.archive.length * 2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(uncaught, []);
  });

  test('writing past the disk budget is seen by the watchdog within seconds', { timeout: 120_000 }, async () => {
    const breached = new Promise<number>((resolve) => watchDisk(session.container, 32 * 1024 * 1024, resolve, 250));
    const wrote = await run('head -c 64000000 /dev/zero > /tmp/fill && sync');
    assert.equal(wrote.exitCode, 0, wrote.stderr);
    const bytes = await breached;
    assert.ok(bytes > 32 * 1024 * 1024);
  });
});

function t_diag(text: string): void {
  process.stdout.write(`# ${text}\n`);
}
