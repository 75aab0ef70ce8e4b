// The tape proxy on loopback, its "registry" a local server: record lets only GETs to the package
// hosts out and stores them; replay serves exactly those bytes with nothing live behind it.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startTapeProxy } from './tape-proxy.ts';
import { tapeCertificates, type TapeCertificates } from './tape-certificates.ts';
import { readTape } from './tape-store.ts';

let registry: http.Server;
let registryPort = 0;
let registryHits = 0;
let dir = '';
let certificates: TapeCertificates;
const hosts = ['pypi.org', 'deb.debian.org'];

before(async () => {
  registry = http.createServer((request, response) => {
    registryHits += 1;
    if (request.url === '/big') return void response.end(Buffer.alloc(64 * 1024, 1));
    response
      .writeHead(200, { 'content-type': 'text/plain', 'set-cookie': 'x=1' })
      .end(`${request.url} as ${request.headers.accept ?? '-'}`);
  });
  await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
  registryPort = (registry.address() as net.AddressInfo).port;
  dir = await mkdtemp(path.join(tmpdir(), 'tape-proxy-'));
  certificates = await tapeCertificates(hosts);
});

after(async () => {
  registry.close();
  await rm(dir, { recursive: true, force: true });
});

/** A plain-http proxy request (absolute-form), as apt and curl send them. */
function plainGet(proxyPort: number, url: string, method = 'GET'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port: proxyPort, method, path: url }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    request.on('error', reject);
    request.end();
  });
}

/** CONNECT then HTTPS inside the tunnel, trusting only the tape's CA, as pip and uv do through https_proxy. */
function tunnelGet(
  proxyPort: number,
  host: string,
  pathname: string,
  accept: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(proxyPort, '127.0.0.1', () =>
      socket.write(`CONNECT ${host}:443 HTTP/1.1\r\nHost: ${host}:443\r\n\r\n`),
    );
    socket.once('data', (data: Buffer) => {
      const status = Number(data.toString().split(' ')[1]);
      if (status !== 200) {
        socket.destroy();
        return resolve({ status, body: '' });
      }
      const secure = tls.connect({ socket, servername: host, ca: certificates.caCertificate });
      const request = http.request(
        { createConnection: () => secure, host, path: pathname, headers: { accept, connection: 'close' } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
          );
        },
      );
      request.on('error', reject);
      request.end();
    });
    socket.on('error', reject);
  });
}

test('record, then replay the same bytes with nothing live; refusals and misses listed', async () => {
  const recorder = await startTapeProxy({
    mode: 'record',
    dir,
    hosts,
    certificates,
    bindHost: '127.0.0.1',
    limits: { maxResponseBytes: 16 * 1024 },
    resolveUpstream: (url) => new URL(`http://127.0.0.1:${registryPort}${url.pathname}`),
  });
  const recorded = await tunnelGet(recorder.port, 'pypi.org', '/simple/pytest/', 'application/json');
  assert.deepEqual(recorded, { status: 200, body: '/simple/pytest/ as application/json' });
  assert.equal((await plainGet(recorder.port, 'http://deb.debian.org/debian/dists/bookworm/InRelease')).status, 200);
  assert.equal((await plainGet(recorder.port, 'http://example.org/x')).status, 403, 'another host');
  assert.equal((await plainGet(recorder.port, 'http://deb.debian.org:8080/x')).status, 403, 'another port');
  assert.equal((await plainGet(recorder.port, 'http://deb.debian.org/x', 'POST')).status, 405, 'another method');
  assert.equal((await plainGet(recorder.port, 'http://deb.debian.org/big')).status, 502, 'past the size bound');
  assert.equal((await tunnelGet(recorder.port, 'example.org', '/', '*/*')).status, 403, 'a tunnel elsewhere');
  const tape = await recorder.close();
  assert.equal(Object.keys(tape?.entries ?? {}).length, 2);
  assert.equal(tape?.refused.length, 5);
  assert.ok(!JSON.stringify(tape).includes('set-cookie'), 'only the headers a client needs are kept');

  const hitsBefore = registryHits;
  registry.close(); // nothing live behind the replay
  const replayer = await startTapeProxy({ mode: 'replay', dir, hosts, certificates, bindHost: '127.0.0.1' });
  assert.deepEqual(await tunnelGet(replayer.port, 'pypi.org', '/simple/pytest/', 'application/json'), recorded);
  const html = await tunnelGet(replayer.port, 'pypi.org', '/simple/pytest/', 'text/html');
  assert.equal(html.status, 404, 'another Accept is another request');
  assert.equal((await plainGet(replayer.port, 'http://deb.debian.org/debian/dists/bookworm/InRelease')).status, 200);
  assert.equal((await plainGet(replayer.port, 'http://deb.debian.org/new')).status, 404);
  const head = await plainGet(replayer.port, 'http://deb.debian.org/debian/dists/bookworm/InRelease', 'HEAD');
  assert.deepEqual(head, { status: 200, body: '' }, 'HEAD from the recorded GET, no body');
  assert.equal((await plainGet(replayer.port, 'http://example.org/x')).status, 403);
  const stats = replayer.stats();
  assert.equal(stats.served, 3);
  assert.deepEqual(stats.missed, ['GET https://pypi.org/simple/pytest/', 'GET http://deb.debian.org/new']);
  assert.equal(stats.refused.length, 1);
  await replayer.close();
  assert.equal(registryHits, hitsBefore, 'the replay asked the registry nothing');
  assert.equal(Object.keys((await readTape(dir))?.entries ?? {}).length, 2, 'replay leaves the tape as recorded');
});

test('the request count is bounded', async () => {
  const replayer = await startTapeProxy({
    mode: 'replay',
    dir,
    hosts,
    certificates,
    bindHost: '127.0.0.1',
    limits: { maxRequests: 2 },
  });
  const statuses: number[] = [];
  for (let i = 0; i < 3; i += 1) statuses.push((await plainGet(replayer.port, `http://deb.debian.org/${i}`)).status);
  assert.deepEqual(statuses, [404, 404, 429]);
  await replayer.close();
});
