// The SSRF-safe fetch against servers on loopback (tests dial nothing else). Loopback is refused by
// the default policy, so each test allows exactly its own server and shows what else is refused.
import test from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { safeFetch } from './safe-fetch.ts';
import { onlyEndpoints } from './address-policy.ts';
import { PackError } from './pack-error.ts';

async function listen(
  handler: http.RequestListener,
): Promise<{ server: http.Server; port: number; close: () => void }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

async function rejectsWith(promise: Promise<unknown>, code: string, pattern?: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof PackError, `expected a PackError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    if (pattern) assert.match(error.message, pattern);
    return true;
  });
}

test('a redirect to a loopback port outside the allowed set is refused; within it, followed', async () => {
  const other = await listen((_req, res) => res.writeHead(200).end('secret'));
  const hits: string[] = [];
  const main = await listen((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/to-other') return void res.writeHead(302, { location: `http://127.0.0.1:${other.port}/` }).end();
    if (req.url === '/to-ipv6') return void res.writeHead(301, { location: `http://[::1]:${other.port}/` }).end();
    if (req.url === '/to-mapped')
      return void res.writeHead(307, { location: `http://[::ffff:127.0.0.1]:${main.port}/ok` }).end();
    if (req.url === '/to-self') return void res.writeHead(308, { location: '/ok' }).end();
    res.writeHead(200).end('fine');
  });
  const allowAddress = onlyEndpoints([{ address: '127.0.0.1', port: main.port }]);
  try {
    const ok = await safeFetch(`http://127.0.0.1:${main.port}/to-self`, { allowAddress });
    assert.equal(ok.body.toString(), 'fine');
    assert.equal(ok.url, `http://127.0.0.1:${main.port}/ok`);
    await rejectsWith(
      safeFetch(`http://127.0.0.1:${main.port}/to-other`, { allowAddress }),
      'pack_url_refused',
      new RegExp(`127\\.0\\.0\\.1 port ${other.port}`),
    );
    await rejectsWith(safeFetch(`http://127.0.0.1:${main.port}/to-ipv6`, { allowAddress }), 'pack_url_refused', /::1/);
    // The mapped spelling of the allowed address is another string: refused too.
    await rejectsWith(safeFetch(`http://127.0.0.1:${main.port}/to-mapped`, { allowAddress }), 'pack_url_refused');
    // The default policy refuses the first hop before connecting.
    const before = hits.length;
    await rejectsWith(safeFetch(`http://127.0.0.1:${main.port}/ok`), 'pack_url_refused');
    await rejectsWith(safeFetch(`http://[::1]:${main.port}/ok`), 'pack_url_refused');
    await rejectsWith(safeFetch(`http://169.254.169.254/latest/meta-data/`), 'pack_url_refused');
    assert.equal(hits.length, before, 'refused URLs are never dialled');
  } finally {
    main.close();
    other.close();
  }
});

test('redirect chains longer than the limit are refused', async () => {
  const server = await listen((req, res) => {
    const n = Number((req.url ?? '/0').slice(1));
    if (n > 0) return void res.writeHead(302, { location: `/${n - 1}` }).end();
    res.writeHead(200).end('end');
  });
  const allowAddress = onlyEndpoints([{ address: '127.0.0.1', port: server.port }]);
  try {
    assert.equal((await safeFetch(`http://127.0.0.1:${server.port}/3`, { allowAddress })).body.toString(), 'end');
    await rejectsWith(
      safeFetch(`http://127.0.0.1:${server.port}/4`, { allowAddress }),
      'pack_url_refused',
      /more than 3/,
    );
    await rejectsWith(
      safeFetch(`http://127.0.0.1:${server.port}/2`, { allowAddress, maxRedirects: 1 }),
      'pack_url_refused',
    );
  } finally {
    server.close();
  }
});

test('the byte cap holds on a streamed body without a length, and a declared length over it is refused', async () => {
  const server = await listen((req, res) => {
    if (req.url === '/declared') return void res.writeHead(200, { 'content-length': String(10_000_000) }).end();
    res.writeHead(200); // chunked, no length
    const chunk = Buffer.alloc(16 * 1024, 0x61);
    let sent = 0;
    const pump = () => {
      while (sent < 200 && res.write(chunk)) sent += 1;
      if (sent < 200) res.once('drain', pump);
      else res.end();
    };
    pump();
  });
  const allowAddress = onlyEndpoints([{ address: '127.0.0.1', port: server.port }]);
  try {
    await rejectsWith(
      safeFetch(`http://127.0.0.1:${server.port}/stream`, { allowAddress, maxBytes: 64 * 1024 }),
      'pack_too_large',
      /more than 65536/,
    );
    await rejectsWith(
      safeFetch(`http://127.0.0.1:${server.port}/declared`, { allowAddress, maxBytes: 64 * 1024 }),
      'pack_too_large',
      /10000000/,
    );
  } finally {
    server.close();
  }
});

test('one deadline covers the whole download: a server that trickles is cut off', async () => {
  const server = await listen((_req, res) => {
    res.writeHead(200);
    const timer = setInterval(() => res.write('x'), 50);
    res.on('close', () => clearInterval(timer));
  });
  const allowAddress = onlyEndpoints([{ address: '127.0.0.1', port: server.port }]);
  try {
    // The server never stops trickling: only the whole-download deadline can end this.
    await rejectsWith(
      safeFetch(`http://127.0.0.1:${server.port}/`, { allowAddress, timeoutMs: 400 }),
      'pack_fetch_failed',
      /within 400 ms/,
    );
  } finally {
    server.close();
  }
});

test('a name is resolved once and the checked address is the one dialled (no rebinding); one bad answer refuses the name', async () => {
  let hostHeader = '';
  const server = await listen((req, res) => {
    hostHeader = req.headers.host ?? '';
    res.writeHead(200).end('pinned');
  });
  const allowAddress = onlyEndpoints([{ address: '127.0.0.1', port: server.port }]);
  let lookups = 0;
  // pack.invalid cannot resolve through the system: success proves the connection used our answer.
  const resolve = async (hostname: string) => {
    lookups += 1;
    assert.equal(hostname, 'pack.invalid');
    return [{ address: '127.0.0.1', family: 4 as const }];
  };
  try {
    const result = await safeFetch(`http://pack.invalid:${server.port}/`, { allowAddress, resolve });
    assert.equal(result.body.toString(), 'pinned');
    assert.deepEqual(result.addresses, ['127.0.0.1']);
    assert.equal(hostHeader, `pack.invalid:${server.port}`);
    assert.equal(lookups, 1);
    // A name answering with an allowed and a refused address is refused whole.
    const mixed = async () => [
      { address: '127.0.0.1', family: 4 as const },
      { address: '10.0.0.7', family: 4 as const },
    ];
    await rejectsWith(
      safeFetch(`http://pack.invalid:${server.port}/`, { allowAddress, resolve: mixed }),
      'pack_url_refused',
      /10\.0\.0\.7/,
    );
    // The default resolver and policy: localhost resolves to loopback and is refused.
    await rejectsWith(safeFetch(`http://localhost:${server.port}/`), 'pack_url_refused');
  } finally {
    server.close();
  }
});

test('non-http schemes and credentials in the URL are refused before any lookup', async () => {
  await rejectsWith(safeFetch('file:///etc/passwd'), 'pack_invalid');
  await rejectsWith(safeFetch('gopher://127.0.0.1/'), 'pack_invalid');
  await rejectsWith(safeFetch('http://user:pw@example.invalid/'), 'pack_invalid');
});
