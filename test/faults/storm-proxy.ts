// A loopback proxy in front of the sim fleet that plays an upstream storm: from the n-th chat
// completion on, for a while, every call fails with 429, 503, or hangs until the caller gives up.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type StormKind = '429' | '503' | 'timeout';

export interface Storm {
  kind: StormKind;
  /** The storm begins with this chat completion (1 = the first). */
  fromCall: number;
  durationMs: number;
}

export interface StormProxy {
  url: string;
  /** The next storm; calls before it are passed through. */
  arm(storm: Storm): void;
  /** Calls failed by the storms so far. */
  failed(): number;
  close(): Promise<void>;
}

export async function startStormProxy(upstreamUrl: string): Promise<StormProxy> {
  const upstream = new URL(upstreamUrl);
  let storm: Storm | undefined;
  let calls = 0;
  let startedAt: number | undefined;
  let failed = 0;
  const raging = () => {
    if (!storm || calls < storm.fromCall) return false;
    startedAt ??= performance.now();
    return performance.now() - startedAt < storm.durationMs;
  };
  const server: Server = createServer((req, res) => {
    if (req.method === 'POST' && req.url?.endsWith('/chat/completions')) {
      calls++;
      if (raging()) {
        failed++;
        if (storm!.kind === 'timeout') {
          req.resume();
          return; // never answered: the gateway's client times out and drops the connection
        }
        const status = Number(storm!.kind);
        req.resume();
        res.writeHead(status, {
          'content-type': 'application/json',
          ...(status === 429 ? { 'retry-after': '0' } : {}),
        });
        res.end(
          JSON.stringify({
            error: { message: `storm: ${status}`, type: status === 429 ? 'rate_limit_error' : 'server_error' },
          }),
        );
        return;
      }
    }
    const forwarded = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: `${upstream.pathname.replace(/\/v1$/, '')}${req.url}`,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    arm(next) {
      storm = next;
      calls = 0;
      startedAt = undefined;
    },
    failed: () => failed,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
