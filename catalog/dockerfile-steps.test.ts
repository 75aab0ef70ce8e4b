import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dockerfileNeeds, simpleCommands, unreachableNeed } from './dockerfile-steps.ts';

test('RUN lines become package-manager calls, not words', () => {
  const needs = dockerfileNeeds(
    [
      'FROM debian:bookworm',
      'RUN apt-get update && apt-get install -y --no-install-recommends curl git python3-pip \\',
      '    && rm -rf /var/lib/apt/lists/*',
      'RUN pip install --no-cache-dir "pytest==8.4.1" && python3 -m pip install requests',
      'RUN curl -LsSf https://installer.example.org/install.sh | sh',
      'RUN wget -q https://files.example.org/a.tgz -O /tmp/a.tgz; git clone https://code.example.org/r.git',
      'RUN npm install -g left-pad && go install example.com/x@latest && cargo install ripgrep',
    ].join('\n'),
  );
  assert.deepEqual(
    needs.map((need) => (need.kind === 'registry' ? `registry:${need.registry}` : need.kind)),
    [
      'debian',
      'registry:pypi',
      'registry:pypi',
      'download',
      'download',
      'git-clone',
      'registry:npm',
      'registry:go',
      'registry:crates',
    ],
  );
  assert.deepEqual(needs[0]!.kind === 'debian' && needs[0]!.packages, ['curl', 'git', 'python3-pip']);
  const piped = needs[3]!;
  assert.ok(piped.kind === 'download' && piped.piped && piped.host === 'installer.example.org');
});

test('quotes hold separators; || and ; split commands', () => {
  assert.deepEqual(
    simpleCommands(`echo "a && b" || echo 'c; d'; true`).map((c) => c.words),
    [['echo', 'a && b'], ['echo', 'c; d'], ['true']],
  );
});

test('a need is unreachable unless its host is a reachable registry', () => {
  const needs = dockerfileNeeds('FROM x\nRUN curl -fsSL https://registry.example.test/pkg.tgz | tar xz\n');
  assert.match(unreachableNeed(needs, new Set()) ?? '', /a download from registry\.example\.test/);
  assert.equal(unreachableNeed(needs, new Set(['registry.example.test'])), undefined);
});
