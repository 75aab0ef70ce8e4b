// Which addresses a miner-given URL may lead the validator to: public unicast only. Loopback,
// link-local, private (RFC 1918, CGNAT, ULA), multicast, unspecified, documentation and reserved
// ranges are refused, also when written as IPv4 inside IPv6 (mapped, NAT64, 6to4). Pure: no I/O.
import { isIP } from 'node:net';
import { readSetting } from '../common/settings/setting.ts';
import { workerSettings } from '../common/settings/worker-settings.ts';

/** Decides whether the validator may connect to an address (an IP literal, never a name) and port. */
export type AddressPolicy = (address: string, port: number) => boolean;

/** IPv4 ranges that are not the public internet: [first octets as a number, prefix length]. */
const refusedIpv4: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

function ipv4ToNumber(address: string): number {
  return address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

function ipv4InRange(value: number, base: string, prefix: number): boolean {
  const size = 2 ** (32 - prefix);
  return Math.floor(value / size) === Math.floor(ipv4ToNumber(base) / size);
}

export function isPublicIpv4(address: string): boolean {
  if (isIP(address) !== 4) return false;
  const value = ipv4ToNumber(address);
  return !refusedIpv4.some(([base, prefix]) => ipv4InRange(value, base, prefix));
}

/** An IPv6 literal as eight 16-bit groups (a trailing dotted quad folded in); undefined if not IPv6. */
export function ipv6Groups(address: string): number[] | undefined {
  const bare = address.replace(/%.*$/, ''); // zone index (fe80::1%eth0)
  if (isIP(bare) !== 6) return undefined;
  let text = bare;
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const value = ipv4ToNumber(quad[1]!);
    text = `${text.slice(0, -quad[1]!.length)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const first = parse(head);
  if (tail === undefined) return first;
  const last = parse(tail);
  return [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
}

function embeddedIpv4(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

export function isPublicIpv6(address: string): boolean {
  const groups = ipv6Groups(address);
  if (!groups) return false;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  // IPv4-mapped ::ffff:a.b.c.d — the IPv4 address decides.
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff)
    return isPublicIpv4(embeddedIpv4(g6, g7));
  // NAT64 64:ff9b::a.b.c.d is refused outright (it reaches IPv4 through a translator we do not audit).
  // Only global unicast 2000::/3 is public; that leaves out ::, ::1, IPv4-compatible ::a.b.c.d,
  // fc00::/7 (ULA), fe80::/10 (link-local), fec0::/10, ff00::/8 (multicast), 64:ff9b::/96.
  if ((g0 & 0xe000) !== 0x2000) return false;
  if (g0 === 0x2001 && g1 === 0x0db8) return false; // documentation
  if (g0 === 0x2001 && g1 === 0x0000) return false; // Teredo (tunnels to arbitrary IPv4)
  if (g0 === 0x2001 && g1 < 0x0200) return false; // IETF protocol assignments 2001::/23
  if (g0 === 0x3fff && g1 < 0x1000) return false; // documentation 3fff::/20
  if (g0 === 0x2002) return isPublicIpv4(embeddedIpv4(g1, g2)); // 6to4 carries an IPv4 address
  return true;
}

/** The default policy: public unicast addresses only, IPv4 or IPv6. */
export const publicAddressesOnly: AddressPolicy = (address) => isPublicIpv4(address) || isPublicIpv6(address);

/** A policy for tests: exactly these host:port pairs are allowed (the host an IP literal). */
export function onlyEndpoints(endpoints: readonly { address: string; port: number }[]): AddressPolicy {
  return (address, port) => endpoints.some((e) => e.address === address && e.port === port);
}

/**
 * The operator's exceptions, from TRL_PACK_FETCH_ALLOW: comma-separated `address:port` endpoints
 * (IPv6 in brackets) a pack may also be fetched from — a private pack mirror, or a test's server.
 * Public addresses stay allowed; nothing else is.
 */
export function packFetchPolicyFromEnvironment(
  value = readSetting(workerSettings, 'TRL_PACK_FETCH_ALLOW'),
): AddressPolicy {
  if (!value?.trim()) return publicAddressesOnly;
  const endpoints = value.split(',').map((item) => {
    const match = /^\s*(?:\[([0-9a-fA-F:.]+)\]|([0-9.]+)):(\d{1,5})\s*$/.exec(item);
    if (!match)
      throw new Error(
        `TRL_PACK_FETCH_ALLOW: "${item.trim()}" is not address:port (IPv6 in brackets), e.g. 127.0.0.1:8080`,
      );
    return { address: (match[1] ?? match[2])!, port: Number(match[3]) };
  });
  const listed = onlyEndpoints(endpoints);
  return (address, port) => publicAddressesOnly(address, port) || listed(address, port);
}
