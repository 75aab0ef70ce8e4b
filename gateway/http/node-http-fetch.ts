// A `fetch` for the gateway's upstream OpenAI client on node:http / node:https with keep-alive
// agents. Node's built-in fetch (undici, WHATWG streams) cost about 1 ms of wall time per model
// call on 2 cores where node:http costs about 0.15 ms (bench/gateway-overhead.ts): most of what the
// gateway added to a call. Only what the OpenAI SDK uses: method, headers, a string/bytes body, an
// abort signal; the answer body arrives as a web stream, so streamed completions stream.
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';

export type NodeHttpFetch = typeof fetch & { close(): void };

function headerRecord(headers: HeadersInit | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  if (!headers) return record;
  new Headers(headers).forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

function responseHeaders(incoming: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

function bodyBytes(body: BodyInit | null | undefined): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  // FormData, Blob and streams are for file uploads, which the gateway never sends upstream.
  throw new TypeError('the upstream fetch sends only string or byte bodies');
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('The operation was aborted.', 'AbortError');
}

/** A fetch with its own keep-alive agents; close() ends their idle sockets. */
export function createNodeHttpFetch(): NodeHttpFetch {
  const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };
  const nodeFetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    if (input instanceof Request) return Promise.reject(new TypeError('the upstream fetch takes a URL and options, not a Request'));
    const url = new URL(input);
    const agent = agents[url.protocol as keyof typeof agents];
    if (!agent) return Promise.reject(new TypeError(`the upstream fetch speaks http and https, not ${url.protocol}`));
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise<Response>((resolve, reject) => {
      let body: string | Uint8Array | undefined;
      try {
        body = bodyBytes(init.body);
      } catch (error) {
        return reject(error);
      }
      const headers = headerRecord(init.headers);
      if (body !== undefined) headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
      const request = (url.protocol === 'https:' ? https : http).request(url, { method: init.method ?? 'GET', headers, agent });
      const onAbort = () => request.destroy(abortError(signal!));
      signal?.addEventListener('abort', onAbort, { once: true });
      request.once('error', (error) => {
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      });
      request.once('response', (incoming) => {
        // The body's stream errors (an abort midway included) reach the reader of the body.
        incoming.once('close', () => signal?.removeEventListener('abort', onAbort));
        const status = incoming.statusCode ?? 502;
        const noBody = status === 204 || status === 304 || init.method === 'HEAD';
        if (noBody) incoming.resume();
        resolve(new Response(noBody ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>), { status, statusText: incoming.statusMessage, headers: responseHeaders(incoming) }));
      });
      request.end(body);
    });
  };
  return Object.assign(nodeFetch as typeof fetch, {
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  });
}
