// The per-run networks of a policy-driven run: Docker internal networks (no route out) with host
// firewall rules on their bridges (IPv4 and IPv6), so a container on one reaches exactly one host
// port and nothing else the host listens on (a listener on 0.0.0.0 would otherwise be reachable
// through the bridge address). Two kinds: the agent's run network (the agent container reaches only
// its policy endpoint) and the policy network (the policy sidecar reaches only the gateway; the
// worker may open connections to the sidecar, so replies to those are let back in).
import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import { containerLabels } from './container-labels.ts';
import { deleteRules, deleteRulesTagged, insertRules, type FirewallRule } from './firewall-rules.ts';
import { log } from '../common/log.ts';
import { ownershipLabels, type WorkerIdentity } from './worker-identity.ts';
import { removeNowOrLater } from './deferred-removal.ts';

export interface RunNetwork {
  name: string;
  /** The host's address on this network: where the policy endpoint listens. */
  hostAddress: string;
  subnet: string;
  bridgeInterface: string;
  /** Opens the one port the agent may reach; everything else from the bridge is dropped. */
  allowOnlyPort(port: number): Promise<void>;
  remove(): Promise<void>;
}

export type FirewalledNetworkKind = 'run' | 'policy';

const kinds = {
  run: { namePrefix: 'trl-run-', bridgePrefix: 'trl-', role: 'run-network', hostInitiates: false },
  policy: { namePrefix: 'trl-pol-', bridgePrefix: 'trlp-', role: 'policy-network', hostInitiates: true },
} as const satisfies Record<
  FirewalledNetworkKind,
  { namePrefix: string; bridgePrefix: string; role: string; hostInitiates: boolean }
>;

const firewallRoles: string[] = Object.values(kinds).map((kind) => kind.role);

export async function createRunNetwork(
  docker: Docker,
  owner: WorkerIdentity,
  workflowId: string,
  kindName: FirewalledNetworkKind = 'run',
): Promise<RunNetwork> {
  const kind = kinds[kindName];
  const id = randomBytes(4).toString('hex');
  const name = `${kind.namePrefix}${id}`;
  const bridgeInterface = `${kind.bridgePrefix}${id}`;
  const network = await docker.createNetwork({
    Name: name,
    Internal: true,
    CheckDuplicate: true,
    Options: { 'com.docker.network.bridge.name': bridgeInterface, 'com.docker.network.bridge.enable_icc': 'false' },
    Labels: { ...ownershipLabels(owner), [containerLabels.role]: kind.role, [containerLabels.workflowId]: workflowId },
  });
  const info = (await network.inspect()) as { IPAM?: { Config?: { Gateway?: string; Subnet?: string }[] } };
  const hostAddress = info.IPAM?.Config?.[0]?.Gateway;
  const subnet = info.IPAM?.Config?.[0]?.Subnet;
  if (!hostAddress || !subnet) {
    await network.remove().catch(() => undefined);
    throw new Error(`docker network ${name} has no gateway address`);
  }
  const rule = (
    table: FirewallRule['table'],
    chain: FirewallRule['chain'],
    match: string[],
    target: 'DROP' | 'ACCEPT',
  ): FirewallRule => ({
    table,
    chain,
    spec: ['-i', bridgeInterface, ...match, '-m', 'comment', '--comment', name, '-j', target],
  });
  // Inserted in this order, each at the top of its chain: the last is matched first.
  const rules: FirewallRule[] = [
    // Default deny from this bridge to the host, before anything else in INPUT; and no forwarding
    // anywhere off the subnet (Docker's internal-network rules already drop it; this holds even if
    // those change).
    rule('iptables', 'INPUT', [], 'DROP'),
    rule('iptables', 'FORWARD', ['!', '-d', subnet], 'DROP'),
    // The network has no IPv6 subnet, but its bridge and containers have link-local addresses: a
    // host listener on [::] would otherwise answer. Nothing over IPv6, to the host or anywhere.
    rule('ip6tables', 'INPUT', [], 'DROP'),
    rule('ip6tables', 'FORWARD', [], 'DROP'),
  ];
  // Replies to connections the worker opened to a container (the policy sidecar); the container
  // itself still opens connections only to the allowed port.
  if (kind.hostInitiates)
    rules.push(rule('iptables', 'INPUT', ['-m', 'conntrack', '--ctstate', 'ESTABLISHED,RELATED'], 'ACCEPT'));
  try {
    await insertRules(rules);
  } catch (error) {
    await deleteRulesTagged(name);
    await network.remove().catch(() => undefined);
    throw new Error(`cannot firewall the run network (iptables): ${(error as Error).message}`);
  }
  return {
    name,
    hostAddress,
    subnet,
    bridgeInterface,
    async allowOnlyPort(port: number) {
      const allow = rule('iptables', 'INPUT', ['-p', 'tcp', '--dport', String(port)], 'ACCEPT');
      await insertRules([allow]);
      rules.push(allow);
    },
    async remove() {
      // The rules this network put in, in one commit per table; if one is gone already (the
      // commit then changes nothing), every rule still tagged with the network's name.
      await deleteRules(rules).catch(() => deleteRulesTagged(name));
      await removeNowOrLater(`network ${name}`, () =>
        network.remove().catch((error: { statusCode?: number }) => {
          if (error.statusCode !== 404) throw error;
        }),
      ).catch(() => log.warn('run_network_remove_failed', { network: name }));
    },
  };
}

/** Run and policy networks (and their firewall rules) left by workers that died; a companion of removeOrphanContainers.
 * */
export async function removeOrphanNetworks(
  docker: Docker,
  isOrphan: (labels: Record<string, string>) => boolean,
): Promise<number> {
  const networks = await docker.listNetworks({ filters: { label: [`${containerLabels.managed}=1`] } });
  let removed = 0;
  for (const info of networks) {
    if (!firewallRoles.includes(info.Labels?.[containerLabels.role] ?? '') || !isOrphan(info.Labels ?? {})) continue;
    await deleteRulesTagged(info.Name);
    await docker
      .getNetwork(info.Id)
      .remove()
      .catch(() => undefined);
    removed += 1;
  }
  return removed;
}
