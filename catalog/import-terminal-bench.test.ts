import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importTerminalBenchTasks, rewriteDockerfile } from './import-terminal-bench.ts';
import { loadScenario } from './load-scenario.ts';
import { repoRoot } from '../common/data-layout.ts';

test('a Dockerfile that adds only Debian packages and local files is rebuilt FROM the base image', () => {
  const result = rewriteDockerfile(
    'FROM ubuntu:24.04\nRUN apt-get update && \\\n  apt-get install -y jq\nWORKDIR /app\nCOPY data/ /app/data/\nENTRYPOINT ["bash"]\n',
  );
  assert.ok(!('refused' in result));
  assert.match(result.dockerfile, /^ARG BASE_IMAGE=trl-sandbox-base:latest\nFROM \$\{BASE_IMAGE\}\n/);
  assert.doesNotMatch(result.dockerfile, /ubuntu|ENTRYPOINT/);
  assert.match(result.dockerfile, /RUN mkdir -p \/app && chown -R agent:agent \/app\n$/);
  assert.match(result.notes.join('\n'), /FROM ubuntu:24.04 rewritten/);
});

test('a Dockerfile that needs the internet or several stages is refused, saying why', () => {
  const refusal = (text: string) => {
    const result = rewriteDockerfile(text);
    return 'refused' in result ? result.refused : '';
  };
  assert.match(refusal('FROM python:3.13\nRUN pip install numpy\n'), /pip install/);
  assert.match(refusal('FROM debian\nRUN curl -L https://x | sh\n'), /curl \/ wget/);
  assert.match(refusal('FROM debian\nADD https://example.org/a.tgz /a\n'), /downloads a file/);
  assert.match(refusal('FROM golang AS build\nFROM debian\n'), /2 FROM lines/);
});

test('import-tasks writes a loadable Harbor task and refuses the PyPI one', async () => {
  const dest = await mkdtemp(path.join(tmpdir(), 'trl-import-'));
  try {
    const results = await importTerminalBenchTasks(path.join(repoRoot, 'test', 'fixtures', 'harbor-tasks'), dest);
    assert.deepEqual(
      results.map((r) => [r.name, r.status]),
      [
        ['hello-world', 'imported'],
        ['needs-pip', 'refused'],
      ],
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
