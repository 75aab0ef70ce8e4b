// How many more Docker networks this engine's address pools give a sandbox host (its admission counts
// them, activities/host-admission.ts: a scenario holds two, its run and its policy network). The
// pools are the engine's `default-address-pools` (`docker info` DefaultAddressPools; Docker's own
// defaults when it names none: fifteen /16 from 172.17.0.0 and sixteen /20 of 192.168.0.0/16, about
// 30 networks, which two hosts of fifteen scenarios each run out of). What the networks of other
// processes hold is taken off; the host's own scenarios it counts itself, created or not.
import type Docker from 'dockerode';
import { containerLabels } from './container-labels.ts';
import type { WorkerIdentity } from './worker-identity.ts';
import { repeatWithoutOverlap } from '../common/repeat-without-overlap.ts';

export interface AddressPool {
  /** IPv4 CIDR the pool's networks are cut from. */
  base: string;
  /** Prefix length of each network cut from it. */
  size: number;
}

/** Docker's built-in pools (libnetwork's predefined local-scope networks) when the engine is given none. */
export const dockerDefaultPools: readonly AddressPool[] = [
  ...Array.from({ length: 15 }, (_, i) => ({ base: `172.${17 + i}.0.0/16`, size: 16 })),
  { base: '192.168.0.0/16', size: 20 },
];

interface Cidr {
  address: number;
  prefix: number;
}

function parseCidr(text: string): Cidr | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(text.trim());
  if (!match) return undefined;
  const octets = match.slice(1, 5).map(Number);
  const prefix = Number(match[5]);
  if (octets.some((o) => o > 255) || prefix > 32) return undefined;
  const address = octets.reduce((sum, o) => sum * 256 + o, 0);
  const block = 2 ** (32 - prefix);
  return { address: address - (address % block), prefix };
}

/** Networks the pools can give at most. */
export function poolCapacity(pools: readonly AddressPool[]): number {
  let total = 0;
  for (const pool of pools) {
    const base = parseCidr(pool.base);
    if (base && pool.size >= base.prefix) total += 2 ** (pool.size - base.prefix);
  }
  return total;
}

/** Pool networks an existing subnet takes: 0 outside every pool, one per pool-sized block it covers inside one. */
export function poolNetworksTaken(subnet: string, pools: readonly AddressPool[]): number {
  const net = parseCidr(subnet);
  if (!net) return 0;
  for (const pool of pools) {
    const base = parseCidr(pool.base);
    if (!base) continue;
    const block = 2 ** (32 - base.prefix);
    if (net.address >= base.address && net.address < base.address + block)
      return net.prefix >= pool.size ? 1 : 2 ** (pool.size - net.prefix);
  }
  return 0;
}

/** The engine's pools: its DefaultAddressPools, Docker's own when it names none. */
export function enginePools(info: { DefaultAddressPools?: { Base?: string; Size?: number }[] | null }): AddressPool[] {
  const named = (info.DefaultAddressPools ?? []).flatMap((pool) =>
    pool.Base && typeof pool.Size === 'number' ? [{ base: pool.Base, size: pool.Size }] : [],
  );
  return named.length > 0 ? named : [...dockerDefaultPools];
}

interface NetworkInfo {
  Labels?: Record<string, string> | null;
  IPAM?: { Config?: { Subnet?: string }[] | null } | null;
}

/** Pool networks left for `owner`: the capacity less what every other process's networks take. */
export function networksLeftFor(
  owner: WorkerIdentity,
  pools: readonly AddressPool[],
  networks: readonly NetworkInfo[],
): number {
  let taken = 0;
  for (const network of networks) {
    if (network.Labels?.[containerLabels.workerId] === owner.id) continue;
    for (const config of network.IPAM?.Config ?? []) taken += poolNetworksTaken(config.Subnet ?? '', pools);
  }
  return Math.max(0, poolCapacity(pools) - taken);
}

/** Every few seconds, the pool networks left for this worker's scenarios; nothing is reported when the engine cannot
 * say (its networks are then not counted). */
export function sampleNetworksLeft(
  docker: Docker,
  owner: WorkerIdentity,
  report: (networks: number) => void,
  intervalMs = 2000,
): { stop(): void } {
  let pools: Promise<AddressPool[]> | undefined;
  return repeatWithoutOverlap(async () => {
    try {
      pools ??= docker.info().then((info: Parameters<typeof enginePools>[0]) => enginePools(info));
      report(networksLeftFor(owner, await pools, (await docker.listNetworks()) as NetworkInfo[]));
    } catch {
      pools = undefined; // read the engine's pools afresh next time
    }
  }, intervalMs);
}
