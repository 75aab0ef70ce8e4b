// The host firewall rules of the per-run networks (run-network.ts), written in batches: one
// iptables-restore per table puts a network's rules in, or takes them out, in one process and one
// commit. One process per rule cost a fork of the worker (tens of MB of page tables) and a
// ruleset load in iptables each time: about 16 processes per network, 2 networks per scenario.
import { runCommand } from '../common/run-command.ts';

export type IpTable = 'iptables' | 'ip6tables';
export const ipTables: readonly IpTable[] = ['iptables', 'ip6tables'];

/** One filter-table rule: its chain and its match and target, as iptables' arguments. */
export interface FirewallRule {
  table: IpTable;
  chain: 'INPUT' | 'FORWARD';
  spec: readonly string[];
}

const plainWord = /^[A-Za-z0-9_.:,/!+-]+$/;

/** The iptables-restore input that inserts (at the top of its chain) or deletes each rule, for one table. */
export function restoreInput(rules: readonly FirewallRule[], action: 'insert' | 'delete'): string {
  const lines = rules.map((rule) => {
    // Every word is the worker's own (names, interfaces, ports); none needs quoting, and one that would is refused.
    for (const word of rule.spec)
      if (!plainWord.test(word)) throw new Error(`firewall rule word ${JSON.stringify(word)} is not a plain word`);
    return [action === 'insert' ? `-I ${rule.chain} 1` : `-D ${rule.chain}`, ...rule.spec].join(' ');
  });
  return `*filter\n${lines.join('\n')}\nCOMMIT\n`;
}

async function restore(table: IpTable, rules: readonly FirewallRule[], action: 'insert' | 'delete'): Promise<void> {
  if (rules.length === 0) return;
  await runCommand(`${table}-restore`, ['-w', '5', '--noflush'], { input: restoreInput(rules, action) });
}

/**
 * Inserts the rules at the top of their chains, in order (so the last one listed ends up first),
 * one commit per table. A table whose commit fails has none of its rules.
 */
export async function insertRules(rules: readonly FirewallRule[]): Promise<void> {
  for (const table of ipTables)
    await restore(
      table,
      rules.filter((rule) => rule.table === table),
      'insert',
    );
}

/** Deletes exactly these rules, one commit per table; fails (changing nothing in that table) if one is missing. */
export async function deleteRules(rules: readonly FirewallRule[]): Promise<void> {
  for (const table of ipTables)
    await restore(
      table,
      rules.filter((rule) => rule.table === table),
      'delete',
    );
}

/** Deletes every INPUT and FORWARD rule whose comment is `tag`, found by listing: for rules no one kept a record of. */
export async function deleteRulesTagged(tag: string): Promise<void> {
  for (const table of ipTables) {
    for (const chain of ['INPUT', 'FORWARD']) {
      const listed = await runCommand(table, ['-w', '5', '-S', chain], { allowFailure: true });
      for (const line of listed.stdout.split('\n')) {
        if (!line.startsWith(`-A ${chain} `) || !line.includes(`--comment ${tag}`)) continue;
        const spec = line.replace(new RegExp(`^-A ${chain}\\s+`), '').match(/(?:[^\s"]+|"[^"]*")+/g) ?? [];
        await runCommand(table, ['-w', '5', '-D', chain, ...spec.map((part) => part.replace(/^"|"$/g, ''))], {
          allowFailure: true,
        });
      }
    }
  }
}
