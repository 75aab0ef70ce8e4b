// The deployment files are checked against the code they configure: every setting of the example
// environment is read by the workers' own parsers and has a row in docs/reference/settings.md, the
// ones the production-topology test gives its worker processes are all there, and the systemd
// units pass `systemd-analyze verify` (pointed at this checkout's `trl`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../common/data-layout.ts';
import { readWorkerConfig } from '../../workers/worker-config.ts';
import { storeConfigFromEnvironment } from '../../common/store/store-config.ts';
import { runCommand, commandExists } from '../../common/run-command.ts';

const deployDir = path.join(repoRoot, 'infra', 'deploy');

/** KEY=value lines as systemd's EnvironmentFile reads them (comments and blank lines skipped). */
function parseEnvironmentFile(text: string): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const equals = trimmed.indexOf('=');
    assert.ok(equals > 0, `not KEY=value: ${trimmed}`);
    entries[trimmed.slice(0, equals)] = trimmed.slice(equals + 1);
  }
  return entries;
}

test("the example environment is accepted by the workers' parsers and documented", async () => {
  const environment = parseEnvironmentFile(await readFile(path.join(deployDir, 'validator.env.example'), 'utf8'));
  const config = readWorkerConfig(environment);
  assert.equal(config.TRL_SPEND_LEDGER, 'workflow');
  const store = storeConfigFromEnvironment(environment);
  assert.equal(store.kind, 's3');
  const settingsPage = await readFile(path.join(repoRoot, 'docs', 'reference', 'settings.md'), 'utf8');
  for (const name of Object.keys(environment).filter((key) => /^(TRL|AWS)_/.test(key))) {
    assert.ok(settingsPage.includes(`| \`${name}\` |`), `${name} has a row in docs/reference/settings.md`);
  }
  // Every setting the topology test gives its roles is in the example.
  const topology = await readFile(path.join(repoRoot, 'test', 'topology', 'production-topology.test.ts'), 'utf8');
  const block = topology.slice(
    topology.indexOf('const deploymentEnv'),
    topology.indexOf('});', topology.indexOf('const deploymentEnv')),
  );
  const tested = [...block.matchAll(/\b((?:TRL|AWS)_[A-Z0-9_]+):/g)].map((match) => match[1]!);
  assert.ok(tested.length >= 8, tested.join());
  for (const name of tested)
    assert.ok(name in environment, `${name} (set by the topology test) is in validator.env.example`);
});

test('the systemd units verify', async (t) => {
  if (!(await commandExists('systemd-analyze'))) {
    t.skip('systemd-analyze is not installed');
    return;
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-units-'));
  const units = (await readdir(path.join(deployDir, 'systemd'))).filter((name) => name.endsWith('.service'));
  assert.deepEqual(units.sort(), ['trl-orchestration.service', 'trl-sandbox.service']);
  for (const unit of units) {
    const text = await readFile(path.join(deployDir, 'systemd', unit), 'utf8');
    assert.match(text, /^ExecStart=\/opt\/trl\/trl worker --role (orchestration|sandbox)$/m);
    assert.match(text, /^EnvironmentFile=\/etc\/trl\/validator\.env$/m);
    await writeFile(
      path.join(dir, unit),
      text
        .replaceAll('/opt/trl', repoRoot)
        .replace(/^EnvironmentFile=.*$/m, `EnvironmentFile=${path.join(deployDir, 'validator.env.example')}`),
    );
  }
  const result = await runCommand('systemd-analyze', ['verify', ...units.map((unit) => path.join(dir, unit))], {
    allowFailure: true,
  });
  const problems = (result.stdout + result.stderr)
    .split('\n')
    .filter((line) => line.trim() !== '' && !/docker\.service|network-online\.target/.test(line));
  assert.deepEqual(problems, [], 'systemd-analyze verify');
});
