import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importTerminalBenchTasks } from './import-terminal-bench.ts';
import { rewriteDockerfile } from './tb1-dockerfile.ts';
import { loadScenario } from './load-scenario.ts';
import { repoRoot } from '../common/data-layout.ts';

test('a Dockerfile keeps its FROM (the build resolves it), with the rewrite noted and the WORKDIR handed over', () => {
  const result = rewriteDockerfile(
    'FROM ubuntu:24.04\nRUN apt-get update && \\\n  apt-get install -y jq curl\nRUN pip3 install --break-system-packages pytest\nWORKDIR /app\nCOPY data/ /app/data/\nENTRYPOINT ["bash"]\n',
  );
  assert.ok(!('refused' in result), 'refused' in result ? result.refused : '');
  assert.match(result.dockerfile, /^FROM ubuntu:24\.04\n/);
  assert.doesNotMatch(result.dockerfile, /ENTRYPOINT/);
  assert.match(result.dockerfile, /RUN mkdir -p \/app && chown -R agent:agent \/app\n$/);
  const notes = result.notes.join('\n');
  assert.match(notes, /FROM ubuntu:24\.04 rewritten: Debian bookworm for Ubuntu 24\.04/);
  assert.match(notes, /the build installs from pypi/);
});

test('a Dockerfile that needs an unreachable host, a third-party apt source or a refused base is refused, saying why', () => {
  const refusal = (text: string) => {
    const result = rewriteDockerfile(text);
    return 'refused' in result ? result.refused : '';
  };
  assert.equal(refusal('FROM python:3.13\nRUN pip install numpy\n'), '', 'PyPI is reached from the build');
  assert.equal(refusal('FROM debian\nRUN apt-get install -y curl wget git\n'), '', 'curl here is a Debian package');
  assert.match(
    refusal('FROM debian\nRUN curl -L https://get.example.org/x | sh\n'),
    /installer piped to a shell from get\.example\.org/,
  );
  assert.match(
    refusal('FROM debian\nRUN git clone https://code.example.org/r.git\n'),
    /git clone from code\.example\.org/,
  );
  assert.match(refusal('FROM debian\nRUN add-apt-repository ppa:x/y\n'), /third-party apt source/);
  assert.match(refusal('FROM swebench/sweb.eval.x86_64.astropy__astropy-12907\n'), /prebuilt SWE-bench task image/);
  assert.equal(refusal('FROM golang:1.22 AS build\nFROM debian:bookworm\nCOPY --from=build /x /x\n'), '');
});

test('import-tasks writes a loadable Harbor task and refuses the one that downloads from an unreachable host', async () => {
  const dest = await mkdtemp(path.join(tmpdir(), 'trl-import-'));
  try {
    const results = await importTerminalBenchTasks(path.join(repoRoot, 'test', 'fixtures', 'harbor-tasks'), dest);
    assert.deepEqual(
      results.map((r) => [r.name, r.status]),
      [
        ['fractional-reward', 'imported'],
        ['nonroot-user', 'imported'],
        ['system-state', 'imported'],
        ['hello-world', 'imported'],
        ['needs-download', 'refused'],
      ],
      'Harbor tasks are checked and copied; TB1 tasks converted',
    );
    const task = await loadScenario(path.join(dest, 'hello-world'));
    assert.equal(task.config.agent_outputs, undefined);
    assert.deepEqual(
      [task.config.metadata.category, task.config.agent.timeout_sec, task.config.verifier.timeout_sec],
      ['file-operations', 120, 60],
    );
    assert.match(
      await readFile(path.join(dest, 'hello-world', 'tests', 'test.sh'), 'utf8'),
      /python3 -m pytest --ctrf \/logs\/verifier\/ctrf.json .*\/tests\/test_outputs.py/,
    );
    assert.equal(
      (await importTerminalBenchTasks(path.join(repoRoot, 'test', 'fixtures', 'harbor-tasks', 'tb1'), dest))[0]?.status,
      'skipped',
      'an existing destination is left alone',
    );
  } finally {
    await rm(dest, { recursive: true, force: true });
  }
});

test('task files the Dockerfile copies into the image stay in its build context', async () => {
  const { copiedByDockerfile } = await import('./import-terminal-bench.ts');
  const dockerfile = 'FROM ubuntu:24.04\nCOPY tests/ /app/tests/\nCOPY --chown=1000 solution.sh /oracle/solution.sh\n';
  assert.equal(copiedByDockerfile(dockerfile, 'tests'), true);
  assert.equal(copiedByDockerfile(dockerfile, 'solution.sh'), true);
  assert.equal(copiedByDockerfile(dockerfile, 'run-tests.sh'), false);
  assert.equal(copiedByDockerfile('FROM x\nCOPY . /app/\n', 'run-tests.sh'), true);
});

test('the folders a TB1 Dockerfile makes or fills for the task are handed to the agent with the WORKDIR', () => {
  const result = rewriteDockerfile(
    [
      'FROM python:3.11-slim',
      'RUN mkdir -p /data /var/cache/x && echo a,b > /data/station_A.csv',
      'COPY inputs/ /srv/inputs/',
      'COPY config.json /workspace/config.json',
      'COPY tests/ /tests/',
      'WORKDIR /app',
      'COPY deps/ ./',
      'RUN mkdir -p $HOME/x',
    ].join('\n'),
  );
  assert.ok(!('refused' in result));
  assert.match(result.dockerfile, /RUN mkdir -p \/app && chown -R agent:agent \/app \/data \/workspace\n$/);
  assert.ok(
    result.notes.includes(
      "the agent runs as agent (uid 1000), not root: /app (the WORKDIR) and /data, /workspace (the task's data) are handed to it",
    ),
  );
});

test("only the final stage's folders are handed to the agent: a data generator's WORKDIR is not in the image", () => {
  const rewritten = rewriteDockerfile(
    'FROM python:3.11-slim as generator\nWORKDIR /build\nRUN python gen.py\nFROM python:3.11-slim\nWORKDIR /app\nCOPY --from=generator /app/db /app/db\n',
  );
  assert.ok('dockerfile' in rewritten);
  assert.match(rewritten.dockerfile, /RUN mkdir -p \/app && chown -R agent:agent \/app\n$/);
});
