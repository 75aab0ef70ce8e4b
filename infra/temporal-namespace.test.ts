// The bootstrap creates a namespace the server lacks before it registers search attributes
// (issue 36: TRL_TEMPORAL_NAMESPACE naming a namespace the server never had failed the bootstrap).
// Against a Temporal dev server of this test's own, on a free loopback port, never the shared one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { ensureTemporalCli } from './temporal-cli.ts';
import { probeFrontend, registerSearchAttributes } from './temporal-server.ts';
import { searchAttributes } from '../contracts/temporal-names.ts';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('a missing namespace is created, then the search attributes are registered in it', {
  timeout: 120_000,
}, async (t) => {
  const binary = await ensureTemporalCli();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-temporal-ns-'));
  const [port, uiPort] = [await freePort(), await freePort()];
  const address = `127.0.0.1:${port}`;
  const server = spawn(
    binary,
    [
      'server',
      'start-dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--ui-port',
      String(uiPort),
      '--headless',
      '--db-filename',
      path.join(dir, 'temporal.db'),
      '--namespace',
      'default',
      '--log-level',
      'error',
    ],
    { stdio: 'ignore' },
  );
  t.after(async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await rm(dir, { recursive: true, force: true });
  });
  const deadline = Date.now() + 60_000;
  while (!(await probeFrontend(address))) {
    assert.ok(Date.now() < deadline, 'the test dev server did not start');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const namespace = 'trl-created-by-bootstrap';
  const connection = await Connection.connect({ address });
  t.after(() => connection.close());
  await assert.rejects(
    connection.workflowService.describeNamespace({ namespace }),
    (e: { code?: number }) => e.code === 5,
  );

  await registerSearchAttributes({ address, namespace });
  const described = await connection.workflowService.describeNamespace({ namespace });
  assert.equal(described.namespaceInfo?.name, namespace);
  const listed = await connection.operatorService.listSearchAttributes({ namespace });
  for (const key of Object.values(searchAttributes)) assert.ok(listed.customAttributes?.[key.name], key.name);
  // Idempotent: a second bootstrap finds both in place.
  await registerSearchAttributes({ address, namespace });
});
