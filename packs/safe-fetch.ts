// Downloads a miner-given URL without letting it steer the validator inside its own network:
// each hop's host is resolved once, every address it resolves to must pass the address policy,
// the connection goes to the address that was checked (no second resolution, so DNS rebinding
// cannot swap it), redirects are followed by hand (at most a few, never https → http), and the
// body is streamed under a byte cap and one deadline for the whole chain.
import http from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { publicAddressesOnly, type AddressPolicy } from './address-policy.ts';
import { PackError } from './pack-error.ts';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface SafeFetchOptions {
  /** Whole download, every hop included. */
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** Public unicast only unless a test says otherwise. */
  allowAddress?: AddressPolicy;
  /** Name → every address (dns.lookup with all: true by default); injectable for tests. */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
}

export interface SafeFetchResult {
  status: number;
  /** The URL that answered (after redirects). */
  url: string;
  /** Every address connected to, in order. */
  addresses: string[];
  body: Buffer;
}

export const safeFetchDefaults = { timeoutMs: 30_000, maxBytes: 256 * 1024, maxRedirects: 3 } as const;

async function systemResolve(hostname: string): Promise<ResolvedAddress[]> {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

function defaultPort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** Resolves a hop's host once and checks every answer; returns the address to connect to. */
async function checkedAddress(
  url: URL,
  allow: AddressPolicy,
  resolve: (hostname: string) => Promise<ResolvedAddress[]>,
): Promise<ResolvedAddress> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const port = defaultPort(url);
  let addresses: ResolvedAddress[];
  const literal = isIP(hostname);
  if (literal) addresses = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await resolve(hostname);
    } catch (error) {
      throw new PackError('pack_fetch_failed', `could not resolve ${hostname}: ${(error as Error).message}`, true);
    }
  }
  if (addresses.length === 0) throw new PackError('pack_fetch_failed', `${hostname} resolves to no address`, true);
  // One bad answer refuses the host: a name that mixes public and private answers is an attack.
  const refused = addresses.find((a) => !allow(a.address, port));
  if (refused) {
    throw new PackError(
      'pack_url_refused',
      `${url.origin} leads to ${refused.address} port ${port}, which is not a public address; a pack URL must point to the public internet`,
    );
  }
  return addresses[0]!;
}

interface Hop {
  status: number;
  location: string | undefined;
  body: Buffer;
}

function requestOnce(url: URL, target: ResolvedAddress, signal: AbortSignal, maxBytes: number): Promise<Hop> {
  // The connection goes to the checked address; the name stays in the Host header and in TLS (SNI
  // and certificate check).
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as unknown as (error: null, addresses: ResolvedAddress[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Hop>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'GET',
        agent: false,
        lookup: pinned,
        signal,
        headers: { accept: 'application/json', 'accept-encoding': 'identity' },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (status >= 300 && status < 400) {
          response.destroy();
          return resolve({ status, location, body: Buffer.alloc(0) });
        }
        const declared = Number(response.headers['content-length'] ?? '0');
        if (declared > maxBytes) {
          response.destroy();
          return reject(new PackError('pack_too_large', `${url.href} is ${declared} bytes; at most ${maxBytes}`));
        }
        const chunks: Buffer[] = [];
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.byteLength;
          if (received > maxBytes) {
            response.destroy();
            reject(new PackError('pack_too_large', `${url.href} sent more than ${maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('error', reject);
        response.on('end', () => resolve({ status, location, body: Buffer.concat(chunks) }));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** GET a miner-given URL under the address policy, the redirect limit, the byte cap and the deadline. */
export async function safeFetch(start: string, options: SafeFetchOptions = {}): Promise<SafeFetchResult> {
  const timeoutMs = options.timeoutMs ?? safeFetchDefaults.timeoutMs;
  const maxBytes = options.maxBytes ?? safeFetchDefaults.maxBytes;
  const maxRedirects = options.maxRedirects ?? safeFetchDefaults.maxRedirects;
  const allow = options.allowAddress ?? publicAddressesOnly;
  const resolve = options.resolve ?? systemResolve;
  const controller = new AbortController();
  const deadline = setTimeout(() => controller.abort(), timeoutMs);
  const addresses: string[] = [];
  let url = parseHttpUrl(start, start);
  try {
    for (let redirects = 0; ; redirects += 1) {
      const target = await checkedAddress(url, allow, resolve);
      if (controller.signal.aborted) throw new Error('deadline');
      addresses.push(target.address);
      const hop = await requestOnce(url, target, controller.signal, maxBytes);
      if (hop.status < 300 || hop.status >= 400)
        return { status: hop.status, url: url.href, addresses, body: hop.body };
      if (!hop.location) return { status: hop.status, url: url.href, addresses, body: hop.body };
      if (redirects >= maxRedirects)
        throw new PackError(
          'pack_url_refused',
          `${start} redirects more than ${maxRedirects} times; a pack URL may redirect at most ${maxRedirects} times`,
        );
      const next = parseHttpUrl(hop.location, url.href, url);
      if (url.protocol === 'https:' && next.protocol !== 'https:')
        throw new PackError(
          'pack_url_refused',
          `${url.href} redirects from https to ${next.protocol}; a pack URL may not downgrade`,
        );
      url = next;
    }
  } catch (error) {
    if (error instanceof PackError) throw error;
    if (controller.signal.aborted)
      throw new PackError('pack_fetch_failed', `could not download ${start} within ${timeoutMs} ms`, true);
    throw new PackError('pack_fetch_failed', `could not download ${url.href}: ${(error as Error).message}`, true);
  } finally {
    clearTimeout(deadline);
  }
}

function parseHttpUrl(text: string, source: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new PackError('pack_invalid', `${source} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new PackError(
      base ? 'pack_url_refused' : 'pack_invalid',
      `pack URL must be http(s), got ${url.protocol}${base ? ` (a redirect from ${base.href})` : ''}`,
    );
  if (url.username || url.password)
    throw new PackError('pack_invalid', `${source}: a pack URL may not carry credentials`);
  return url;
}
