// The per-run network of a policy-driven agent: a Docker internal network (no route out), and host
// firewall rules on its bridge so the agent container reaches exactly one host port — its policy
// endpoint — and nothing else the host listens on (a listener on 0.0.0.0 would otherwise be
// reachable through the bridge address).
import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import { containerLabels } from './container-labels.ts';
import { runCommand } from '../common/run-command.ts';
import { log } from '../common/log.ts';
import { ownershipLabels, type WorkerIdentity } from './worker-identity.ts';

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

const rulePrefix = 'trl-run-';

async function iptables(args: string[]): Promise<void> {
  await runCommand('iptables', ['-w', '5', ...args]);
}

async function deleteRulesTagged(tag: string): Promise<void> {
  for (const chain of ['INPUT', 'FORWARD']) {
    const listed = await runCommand('iptables', ['-w', '5', '-S', chain], { allowFailure: true });
    for (const line of listed.stdout.split('\n')) {
      if (!line.startsWith(`-A ${chain} `) || !line.includes(`--comment ${tag}`)) continue;
      const spec = line.replace(new RegExp(`^-A ${chain}\\s+`), '').match(/(?:[^\s"]+|"[^"]*")+/g) ?? [];
      await runCommand('iptables', ['-w', '5', '-D', chain, ...spec.map((part) => part.replace(/^"|"$/g, ''))], { allowFailure: true });
    }
  }
}

export async function createRunNetwork(docker: Docker, owner: WorkerIdentity, workflowId: string): Promise<RunNetwork> {
  const id = randomBytes(4).toString('hex');
  const name = `${rulePrefix}${id}`;
  const bridgeInterface = `trl-${id}`;
  const network = await docker.createNetwork({
    Name: name,
    Internal: true,
    CheckDuplicate: true,
    Options: { 'com.docker.network.bridge.name': bridgeInterface, 'com.docker.network.bridge.enable_icc': 'false' },
    Labels: { ...ownershipLabels(owner), [containerLabels.role]: 'run-network', [containerLabels.workflowId]: workflowId },
  });
  const info = (await network.inspect()) as { IPAM?: { Config?: { Gateway?: string; Subnet?: string }[] } };
  const hostAddress = info.IPAM?.Config?.[0]?.Gateway;
  const subnet = info.IPAM?.Config?.[0]?.Subnet;
  if (!hostAddress || !subnet) {
    await network.remove().catch(() => undefined);
    throw new Error(`docker network ${name} has no gateway address`);
  }
  try {
    // Default deny from this bridge to the host, inserted before anything else in INPUT; and no
    // forwarding anywhere off the subnet (Docker's internal-network rules already drop it; this
    // holds even if those change).
    await iptables(['-I', 'INPUT', '1', '-i', bridgeInterface, '-m', 'comment', '--comment', name, '-j', 'DROP']);
    await iptables(['-I', 'FORWARD', '1', '-i', bridgeInterface, '!', '-d', subnet, '-m', 'comment', '--comment', name, '-j', 'DROP']);
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
      await iptables(['-I', 'INPUT', '1', '-i', bridgeInterface, '-p', 'tcp', '--dport', String(port), '-m', 'comment', '--comment', name, '-j', 'ACCEPT']);
    },
    async remove() {
      await deleteRulesTagged(name);
      await network.remove().catch((error: { statusCode?: number }) => {
        if (error.statusCode !== 404) log.warn('run_network_remove_failed', { network: name });
      });
    },
  };
}

/** Networks (and their firewall rules) left by workers that died; a companion of removeOrphanContainers. */
export async function removeOrphanNetworks(docker: Docker, isOrphan: (labels: Record<string, string>) => boolean): Promise<number> {
  const networks = await docker.listNetworks({ filters: { label: [`${containerLabels.managed}=1`, `${containerLabels.role}=run-network`] } });
  let removed = 0;
  for (const info of networks) {
    if (!isOrphan(info.Labels ?? {})) continue;
    await deleteRulesTagged(info.Name);
    await docker.getNetwork(info.Id).remove().catch(() => undefined);
    removed += 1;
  }
  return removed;
}
