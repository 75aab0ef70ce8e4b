// Against the host's real iptables (the suite runs as root), on an interface name no bridge has:
// the rules match nothing, and each test removes what it put in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { runCommand } from '../common/run-command.ts';
import { deleteRules, deleteRulesTagged, insertRules, restoreInput, type FirewallRule } from './firewall-rules.ts';

function fakeNetwork() {
  const id = randomBytes(3).toString('hex');
  const tag = `trl-fwtest-${id}`;
  const rule = (
    table: FirewallRule['table'],
    chain: FirewallRule['chain'],
    match: string[],
    target: string,
  ): FirewallRule => ({
    table,
    chain,
    spec: ['-i', `trlfw${id}`, ...match, '-m', 'comment', '--comment', tag, '-j', target],
  });
  return { tag, rule };
}

async function listed(table: FirewallRule['table'], tag: string): Promise<string[]> {
  const lines: string[] = [];
  for (const chain of ['INPUT', 'FORWARD']) {
    const out = await runCommand(table, ['-w', '5', '-S', chain]);
    lines.push(...out.stdout.split('\n').filter((line) => line.includes(`--comment ${tag}`)));
  }
  return lines;
}

test('the restore input inserts at the top of each chain, or deletes, and refuses a word that would need quoting', () => {
  const rules: FirewallRule[] = [
    { table: 'iptables', chain: 'INPUT', spec: ['-i', 'br0', '-j', 'DROP'] },
    { table: 'iptables', chain: 'FORWARD', spec: ['-i', 'br0', '!', '-d', '10.0.0.0/24', '-j', 'DROP'] },
  ];
  assert.equal(
    restoreInput(rules, 'insert'),
    '*filter\n-I INPUT 1 -i br0 -j DROP\n-I FORWARD 1 -i br0 ! -d 10.0.0.0/24 -j DROP\nCOMMIT\n',
  );
  assert.equal(
    restoreInput(rules, 'delete'),
    '*filter\n-D INPUT -i br0 -j DROP\n-D FORWARD -i br0 ! -d 10.0.0.0/24 -j DROP\nCOMMIT\n',
  );
  for (const word of ['a b', 'x\nCOMMIT', '"q"', '']) {
    assert.throws(
      () => restoreInput([{ table: 'iptables', chain: 'INPUT', spec: ['--comment', word] }], 'insert'),
      /not a plain word/,
    );
  }
});

test('rules go in, in both tables, the last listed matched first, and come out again', async () => {
  const { tag, rule } = fakeNetwork();
  const rules = [
    rule('iptables', 'INPUT', [], 'DROP'),
    rule('iptables', 'FORWARD', ['!', '-d', '10.77.0.0/24'], 'DROP'),
    rule('ip6tables', 'INPUT', [], 'DROP'),
    rule('iptables', 'INPUT', ['-m', 'conntrack', '--ctstate', 'ESTABLISHED,RELATED'], 'ACCEPT'),
  ];
  try {
    await insertRules(rules);
    const v4 = await listed('iptables', tag);
    assert.equal(v4.length, 3);
    assert.match(v4[0]!, /^-A INPUT .*conntrack.* -j ACCEPT$/, 'the last inserted is first in INPUT');
    assert.match(v4[1]!, /^-A INPUT .* -j DROP$/);
    assert.match(v4[2]!, /^-A FORWARD .* -j DROP$/);
    assert.equal((await listed('ip6tables', tag)).length, 1);
    await deleteRules(rules);
    assert.deepEqual([...(await listed('iptables', tag)), ...(await listed('ip6tables', tag))], []);
  } finally {
    await deleteRulesTagged(tag);
  }
});

test('deleting a set with a rule already gone changes nothing in that table; the tagged sweep then removes the rest', async () => {
  const { tag, rule } = fakeNetwork();
  const present = rule('iptables', 'INPUT', [], 'DROP');
  const missing = rule('iptables', 'INPUT', ['-p', 'tcp', '--dport', '9'], 'ACCEPT');
  try {
    await insertRules([present]);
    await assert.rejects(deleteRules([present, missing]), /iptables-restore/);
    assert.equal((await listed('iptables', tag)).length, 1, 'one commit: the present rule is still there');
    await deleteRulesTagged(tag);
    assert.deepEqual(await listed('iptables', tag), []);
  } finally {
    await deleteRulesTagged(tag);
  }
});
