// The registry tape proxy: an HTTP proxy (plain `GET http://…` and `CONNECT host:443`, whose TLS it
// answers itself with the tape certificate) for the containers of a rehearsal or a verification.
// - record: a GET (or HEAD, answered from the GET) to one of the package hosts is fetched from the registry (through the host's own
//   network and CA bundle), stored by content hash and answered; anything else — another host or
//   port, another method, past a bound — is refused and listed. Redirects are not followed: the
//   client follows them through the proxy, and the target must be a package host too.
// - replay: exactly the recorded responses, from the tape's files; nothing live behind it. A request
//   not on the tape gets 404 and is listed.
// Everything a task controls is bounded: requests, bytes per response and in all, time per request.
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import tls from 'node:tls';
import { createHash } from 'node:crypto';
import {
  blobPath,
  keptResponseHeaders,
  readTape,
  requestKey,
  writeTape,
  type Tape,
  type TapeEntry,
} from './tape-store.ts';
import type { TapeCertificates } from './tape-certificates.ts';

export interface TapeLimits {
  maxRequests: number;
  maxResponseBytes: number;
  maxTotalBytes: number;
  requestTimeoutMs: number;
}

export const defaultTapeLimits: TapeLimits = {
  maxRequests: 4000,
  maxResponseBytes: 512 * 1024 * 1024,
  maxTotalBytes: 3 * 1024 * 1024 * 1024,
  requestTimeoutMs: 180_000,
};

export interface TapeProxyOptions {
  mode: 'record' | 'replay';
  /** The tape's folder (written on close in record mode; read at start in replay mode). */
  dir: string;
  /** The package hosts: https on 443, http on 80. */
  hosts: string[];
  certificates: TapeCertificates;
  /** The one address to listen on (a run network's bridge address, or loopback). */
  bindHost: string;
  limits?: Partial<TapeLimits>;
  /** record: the CA bundle upstream TLS is checked against (the host's, which may intercept). */
  upstreamCa?: string | Buffer;
  /** record: where a request really goes (tests send the package hosts to a local server). */
  resolveUpstream?: (url: URL) => URL;
}

export interface TapeProxyStats {
  served: number;
  /** replay: requests not on the tape (at most 50 listed). */
  missed: string[];
  /** Requests refused (host, method, bound; at most 50 listed). */
  refused: string[];
}

export interface TapeProxy {
  port: number;
  /** The proxy URL as a container on the network sees it. */
  url: string;
  stats(): TapeProxyStats;
  /** Stops listening; in record mode writes tape.json and returns the tape. */
  close(): Promise<Tape | undefined>;
}

const listedMost = 50;

export async function startTapeProxy(options: TapeProxyOptions): Promise<TapeProxy> {
  const limits = { ...defaultTapeLimits, ...options.limits };
  const hosts = new Set(options.hosts.map((host) => host.toLowerCase()));
  const tape: Tape =
    options.mode === 'replay'
      ? ((await readTape(options.dir)) ??
        (() => {
          throw new Error(`no registry tape in ${options.dir}`);
        })())
      : { version: 1, entries: {}, refused: [], recordedAt: new Date().toISOString() };
  const stats: TapeProxyStats = { served: 0, missed: [], refused: [] };
  let requests = 0;
  let totalBytes = 0;
  const connectHosts = new WeakMap<Socket, string>();
  const sockets = new Set<Socket>();

  const note = (list: string[], line: string) => {
    if (list.length < listedMost && !list.includes(line)) list.push(line);
  };
  const refuse = (response: http.ServerResponse, status: number, line: string) => {
    note(stats.refused, line);
    if (options.mode === 'record') note(tape.refused, line);
    response.writeHead(status, { 'content-type': 'text/plain' }).end(`trl registry tape: refused: ${line}\n`);
  };

  const handle = (request: http.IncomingMessage, response: http.ServerResponse) => {
    const target = targetOf(request, connectHosts.get(request.socket));
    if (!target) return refuse(response, 400, `${request.method} ${request.url} (not a proxy request)`);
    // Only the default port of the scheme (the URL parser leaves port empty then).
    if (!hosts.has(target.hostname) || target.port !== '')
      return refuse(response, 403, `${request.method} ${target.href} (not a package host)`);
    // HEAD is answered from the GET (recorded or replayed) without its body: only GETs go out.
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return refuse(response, 405, `${request.method} ${target.href} (only GET)`);
    requests += 1;
    if (requests > limits.maxRequests)
      return refuse(response, 429, `GET ${target.href} (past ${limits.maxRequests} requests)`);
    const key = requestKey('GET', target.href, header(request, 'accept'));
    if (options.mode === 'replay') return replay(key, target, response);
    record(key, target, request, response).catch((error: Error) => {
      if (!response.headersSent) refuse(response, 502, `GET ${target.href} (${error.message.slice(0, 200)})`);
      else response.destroy();
    });
  };

  const replay = (key: string, target: URL, response: http.ServerResponse) => {
    const entry = tape.entries[key];
    if (!entry) {
      note(stats.missed, `GET ${target.href}`);
      response.writeHead(404, { 'content-type': 'text/plain' }).end('trl registry tape: not recorded\n');
      return;
    }
    stats.served += 1;
    response.writeHead(entry.status, { ...entry.headers, 'content-length': String(entry.bytes) });
    if (response.req.method === 'HEAD') return void response.end();
    createReadStream(blobPath(options.dir, entry.bodySha256))
      .on('error', () => response.destroy())
      .pipe(response);
  };

  const record = async (key: string, target: URL, request: http.IncomingMessage, response: http.ServerResponse) => {
    const fetched = await fetchUpstream(options.resolveUpstream?.(target) ?? target, {
      accept: header(request, 'accept'),
      userAgent: header(request, 'user-agent'),
      ca: options.upstreamCa,
      timeoutMs: limits.requestTimeoutMs,
      maxBytes: Math.min(limits.maxResponseBytes, limits.maxTotalBytes - totalBytes),
    });
    totalBytes += fetched.body.length;
    const bodySha256 = createHash('sha256').update(fetched.body).digest('hex');
    const file = blobPath(options.dir, bodySha256);
    await mkdir(`${options.dir}/blobs`, { recursive: true });
    const temporary = `${file}.${process.pid}.${requests}.tmp`;
    await writeFile(temporary, fetched.body);
    await rename(temporary, file);
    const entry: TapeEntry = {
      status: fetched.status,
      headers: fetched.headers,
      bodySha256,
      bytes: fetched.body.length,
    };
    tape.entries[key] = entry;
    stats.served += 1;
    response
      .writeHead(entry.status, { ...entry.headers, 'content-length': String(entry.bytes) })
      .end(request.method === 'HEAD' ? undefined : fetched.body);
  };

  const serverOptions = { requestTimeout: limits.requestTimeoutMs, headersTimeout: 30_000, keepAliveTimeout: 30_000 };
  const inner = http.createServer(serverOptions, handle);
  const outer = http.createServer(serverOptions, handle);
  outer.maxConnections = 128;
  const secureContext = tls.createSecureContext({
    cert: options.certificates.certificate,
    key: options.certificates.key,
  });
  outer.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  outer.on('connect', (request: http.IncomingMessage, socket: Socket, head: Buffer) => {
    const [host, port] = (request.url ?? '').toLowerCase().split(':');
    if (!host || !hosts.has(host) || port !== '443') {
      const line = `CONNECT ${request.url} (not a package host on 443)`;
      note(stats.refused, line);
      if (options.mode === 'record') note(tape.refused, line);
      socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) socket.unshift(head);
    const secure = new tls.TLSSocket(socket, { isServer: true, secureContext });
    secure.on('error', () => socket.destroy());
    connectHosts.set(secure, host);
    inner.emit('connection', secure);
  });
  outer.on('clientError', (_error, socket) => socket.destroy());
  inner.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    outer.once('error', reject);
    outer.listen(0, options.bindHost, () => resolve());
  });
  const port = (outer.address() as AddressInfo).port;
  const bracketed = options.bindHost.includes(':') ? `[${options.bindHost}]` : options.bindHost;
  return {
    port,
    url: `http://${bracketed}:${port}`,
    stats: () => ({ served: stats.served, missed: [...stats.missed], refused: [...stats.refused] }),
    async close() {
      await new Promise<void>((resolve) => {
        outer.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      inner.close();
      if (options.mode !== 'record') return undefined;
      await writeTape(options.dir, tape);
      return tape;
    },
  };
}

function header(request: http.IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The URL a proxied request asks for: absolute-form (plain http) or, inside a CONNECT tunnel, the tunnel's host. */
function targetOf(request: http.IncomingMessage, connectHost: string | undefined): URL | undefined {
  try {
    if (connectHost !== undefined) {
      if (!request.url?.startsWith('/')) return undefined;
      return new URL(`https://${connectHost}${request.url}`);
    }
    if (!request.url?.startsWith('http://')) return undefined;
    return new URL(request.url);
  } catch {
    return undefined;
  }
}

interface Fetched {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

function fetchUpstream(
  url: URL,
  request: { accept?: string; userAgent?: string; ca?: string | Buffer; timeoutMs: number; maxBytes: number },
): Promise<Fetched> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Fetched>((resolve, reject) => {
    const outgoing = client.get(
      url,
      {
        headers: {
          ...(request.accept ? { accept: request.accept } : {}),
          ...(request.userAgent ? { 'user-agent': request.userAgent } : {}),
          'accept-encoding': 'identity',
        },
        ...(request.ca && url.protocol === 'https:' ? { ca: request.ca } : {}),
        timeout: request.timeoutMs,
      },
      (incoming) => {
        const declared = Number(incoming.headers['content-length'] ?? 0);
        if (declared > request.maxBytes) {
          incoming.destroy();
          reject(new Error(`response of ${declared} bytes past the bound of ${request.maxBytes}`));
          return;
        }
        const chunks: Buffer[] = [];
        let bytes = 0;
        incoming.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > request.maxBytes) {
            incoming.destroy(new Error(`response past the bound of ${request.maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        incoming.on('error', reject);
        incoming.on('end', () => {
          const headers: Record<string, string> = {};
          for (const name of keptResponseHeaders) {
            const value = incoming.headers[name];
            if (typeof value === 'string') headers[name] = value;
          }
          resolve({ status: incoming.statusCode ?? 502, headers, body: Buffer.concat(chunks) });
        });
      },
    );
    const deadline = setTimeout(
      () => outgoing.destroy(new Error(`no full answer within ${request.timeoutMs} ms`)),
      request.timeoutMs,
    );
    outgoing.on('close', () => clearTimeout(deadline));
    outgoing.on('timeout', () => outgoing.destroy(new Error('upstream idle')));
    outgoing.on('error', reject);
  });
}

/** The host's CA bundle (it may hold the CA of an intercepting proxy the registries are reached through). */
export async function hostCaBundle(): Promise<Buffer | undefined> {
  return readFile(process.env.SSL_CERT_FILE ?? '/etc/ssl/certs/ca-certificates.crt').catch(() => undefined);
}
