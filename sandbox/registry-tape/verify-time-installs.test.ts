import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rewriteUvInstaller, rewriteUvPython, uvInstallerPath, verifyTimeInstalls } from './verify-time-installs.ts';

const harborTestScript = `#!/bin/bash
# curl https://astral.sh/uv/install.sh | sh  (a comment installs nothing)
apt-get update && apt-get install -y curl && rm -rf /var/lib/apt/lists/*

curl -LsSf https://astral.sh/uv/0.9.7/install.sh | sh

source $HOME/.local/bin/env

uvx \\
  --with pytest==8.4.1 \\
  pytest --ctrf /logs/verifier/ctrf.json /tests/test_state.py -rA
`;

test('install lines are read from test.sh, comments skipped', () => {
  assert.deepEqual(verifyTimeInstalls(harborTestScript), [
    'apt-get update && apt-get install -y curl && rm -rf /var/lib/apt/lists/*',
    'curl -LsSf https://astral.sh/uv/0.9.7/install.sh | sh',
    'uvx \\',
  ]);
  assert.deepEqual(verifyTimeInstalls('pip install pytest==8.4.1\npython3 -m pip install -q numpy\n'), [
    'pip install pytest==8.4.1',
    'python3 -m pip install -q numpy',
  ]);
  assert.deepEqual(verifyTimeInstalls('pytest --ctrf /logs/verifier/ctrf.json /tests -rA\necho 1 > reward.txt\n'), []);
});

test("astral.sh's installer becomes uv's PyPI wheel at the same version, and says so", () => {
  const { script, notes } = rewriteUvInstaller(harborTestScript);
  assert.ok(script.includes(`\npython3 ${uvInstallerPath} 0.9.7\n`));
  assert.ok(script.includes('# curl https://astral.sh/uv/install.sh | sh'), 'comments are left alone');
  assert.equal(notes.length, 1);
  assert.match(notes[0]!, /uv 0\.9\.7 from PyPI/);
  assert.equal(
    rewriteUvInstaller('wget -qO- https://astral.sh/uv/install.sh | bash -s -- --quiet\n').script,
    `python3 ${uvInstallerPath}\n`,
  );
  assert.deepEqual(rewriteUvInstaller('pip install uv\n'), { script: 'pip install uv\n', notes: [] });
});

test("uv's Python requests: that version when the image has it, else the image's python3; comments and other flags untouched", () => {
  const script = [
    '# uvx -p 3.13 pytest',
    'uvx \\',
    '  -p 3.13 \\',
    '  -w pytest==8.4.1 \\',
    '  pytest --ctrf /logs/verifier/ctrf.json /tests/test_outputs.py -rA',
    'uv run --python=3.12 pytest',
    'pip install -p 3.9 x',
  ].join('\n');
  const { script: out, notes } = rewriteUvPython({ script, notes: [] });
  const lines = out.split('\n');
  assert.equal(lines[0], '# uvx -p 3.13 pytest');
  assert.equal(lines[2], '  -p "$(command -v python3.13 >/dev/null 2>&1 && echo 3.13 || echo python3)" \\');
  assert.equal(lines[3], '  -w pytest==8.4.1 \\');
  assert.equal(
    lines[5],
    'uv run --python="$(command -v python3.12 >/dev/null 2>&1 && echo 3.12 || echo python3)" pytest',
  );
  assert.equal(lines[6], 'pip install -p 3.9 x');
  assert.equal(notes.length, 2);
  assert.match(notes[0]!, /Python 3\.13/);
  // A script without a request is left as it is.
  assert.equal(rewriteUvPython({ script: 'uvx pytest /tests', notes: [] }).script, 'uvx pytest /tests');
});
