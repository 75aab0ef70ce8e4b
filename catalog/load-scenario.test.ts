import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTaskToml, loadScenario, configNotes } from './load-scenario.ts';
import { parseSizeMb } from '../contracts/task-config.ts';
import { listScenarioFolders, selectScenarios } from './list-scenarios.ts';

const valid = `
version = "1.0"
agent_outputs = ["/app/out"]
[metadata]
category = "sql"
difficulty = "hard"
[agent]
timeout_sec = 600
[verifier]
timeout_sec = 120
[environment]
cpus = 1
memory_mb = 1024
`;

test('a valid task.toml parses with defaults filled in', () => {
  const config = parseTaskToml('s', valid);
  assert.equal(config.metadata.difficulty, 'hard');
  assert.equal(config.environment.allow_internet, true, "Harbor's default");
  assert.deepEqual(config.metadata.tags, []);
});

test("a task.toml with nothing but a version gets Harbor's defaults", () => {
  const config = parseTaskToml('s', 'version = "1.0"');
  assert.equal(config.agent_outputs, undefined, 'no outputs declared: verified from a snapshot');
  assert.equal(config.metadata.category, undefined);
  assert.equal(config.metadata.difficulty, undefined);
  assert.deepEqual(
    [config.agent.timeout_sec, config.verifier.timeout_sec, config.environment.cpus, config.environment.memory_mb],
    [600, 600, 1, 2048],
  );
  assert.deepEqual([config.environment.env, config.verifier.env, config.solution.env], [{}, {}, {}]);
  assert.equal(configNotes(config).length, 1, 'allow_internet (default true) is noted');
});

test("Harbor's other spellings: memory and storage strings, users, env tables, free-form metadata", () => {
  const config = parseTaskToml(
    's',
    `
[metadata]
difficulty = "very hard"
category = "Machine Learning"
author_email = "x@example.org"
[agent]
user = "builder"
[verifier]
user = 0
env = { MODE = "strict", LEVEL = 3 }
[environment]
memory = "4G"
storage = "512M"
allow_internet = false
workdir = "/srv/work"
[environment.env]
PYTHONHASHSEED = 0
`,
  );
  assert.deepEqual([config.environment.memory_mb, config.environment.storage_mb], [4096, 512]);
  assert.deepEqual(
    [config.agent.user, config.verifier.user, config.environment.workdir],
    ['builder', '0', '/srv/work'],
  );
  assert.deepEqual(config.verifier.env, { MODE: 'strict', LEVEL: '3' });
  assert.deepEqual(config.environment.env, { PYTHONHASHSEED: '0' });
  assert.equal(config.metadata.difficulty, 'very hard');
  assert.deepEqual(configNotes(config), []);
});

test('task.toml errors name the scenario and the field', () => {
  assert.throws(
    () => parseTaskToml('s', valid.replace('["/app/out"]', '["relative/out"]')),
    /field "agent_outputs.0": must be an absolute path/,
  );
  assert.throws(
    () => parseTaskToml('s', valid.replace('["/app/out"]', '[]')),
    /leave agent_outputs out to verify from a snapshot/,
  );
  assert.throws(
    () => parseTaskToml('s', valid.replace('memory_mb = 1024', 'memory = "lots"')),
    /field "environment.memory": "lots" is not a size/,
  );
  assert.throws(
    () => parseTaskToml('s', valid.replace('[agent]', '[agent]\nenv = { "BAD NAME" = "1" }')),
    /field "agent.env.BAD NAME"/,
  );
  assert.throws(() => parseTaskToml('s', 'not = toml = really'), /not valid TOML/);
});

test('sizes: units, plain megabytes, and nonsense', () => {
  assert.deepEqual(['2G', '512M', '1.5g', '2048', '1Gi', 1024].map(parseSizeMb), [2048, 512, 1536, 2048, 1024, 1024]);
  assert.deepEqual(['', 'G', '-1G', '0'].map(parseSizeMb), [undefined, undefined, undefined, undefined]);
});

test('every scenario in the repository loads', async () => {
  const all = await listScenarioFolders();
  assert.ok(all.length >= 3);
  for (const scenario of all) {
    const loaded = await loadScenario(scenario.dir);
    assert.ok(loaded.instruction.length > 50, `${scenario.name} has a near-empty instruction`);
  }
});

test('unknown scenario names are refused with the available ones listed', async () => {
  await assert.rejects(selectScenarios(['no-such-scenario']), /no such scenario; available: .*csv-sales-report/);
});

test('tasks one folder deeper are found; a folder with none says why', async () => {
  const { mkdtemp, mkdir, writeFile, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const root = await mkdtemp(path.join(tmpdir(), 'trl-tasks-'));
  try {
    await assert.rejects(
      listScenarioFolders(root),
      /no scenarios found: no folder in it \(or one level deeper\) has a task.toml/,
    );
    await mkdir(path.join(root, 'tb1', 'hello'), { recursive: true });
    await writeFile(path.join(root, 'tb1', 'hello', 'task.yaml'), 'instruction: hi\n');
    await assert.rejects(
      listScenarioFolders(root),
      /Terminal-Bench 1 task\(s\) \(task.yaml, e.g. tb1\/hello\); convert them with `trl import-tasks/,
    );
    await mkdir(path.join(root, 'group', 'deep-task'), { recursive: true });
    await writeFile(path.join(root, 'group', 'deep-task', 'task.toml'), 'version = "1.0"\n');
    assert.deepEqual(
      (await listScenarioFolders(root)).map((s) => s.name),
      ['deep-task'],
    );
    await mkdir(path.join(root, 'other', 'deep-task'), { recursive: true });
    await writeFile(path.join(root, 'other', 'deep-task', 'task.toml'), 'version = "1.0"\n');
    await assert.rejects(listScenarioFolders(root), /two task folders share this name/);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('notes say only what is true: undeclared allow_internet earns none, an unknown key is reported', async () => {
  const { parseTaskTomlWithRaw } = await import('./load-scenario.ts');
  const undeclared = parseTaskTomlWithRaw('s', '[agent]\ntimeout_sec = 60\noutputs = ["/app/x"]\n');
  const notes = configNotes(undeclared.config, undeclared.raw);
  assert.doesNotMatch(notes.join('\n'), /allow_internet/);
  assert.match(notes.join('\n'), /task\.toml \[agent\] outputs is not a key Harbor or this validator reads: ignored/);
  const declared = parseTaskTomlWithRaw('s', '[environment]\nallow_internet = true\ngpus = 1\n');
  assert.match(configNotes(declared.config, declared.raw).join('\n'), /allow_internet = true accepted/);
  assert.match(configNotes(declared.config, declared.raw).join('\n'), /gpus = 1 asked; sandboxes have no GPU/);
});

test('a missing tests/test.sh names the file, what it is for and where to add it; a refused base says why', async () => {
  const { mkdtemp, mkdir, writeFile, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const dir = await mkdtemp(path.join(tmpdir(), 'trl-load-'));
  try {
    await mkdir(path.join(dir, 'environment'));
    await writeFile(path.join(dir, 'task.toml'), 'version = "1.0"\n');
    await writeFile(path.join(dir, 'instruction.md'), 'x\n');
    await writeFile(path.join(dir, 'environment', 'Dockerfile'), 'FROM python:3.12-slim\n');
    await assert.rejects(loadScenario(dir), /missing tests\/test\.sh \(the verifier: .*\); add it to /);
    await mkdir(path.join(dir, 'tests'));
    await writeFile(path.join(dir, 'tests', 'test.sh'), 'true\n');
    const loaded = await loadScenario(dir);
    assert.match(
      loaded.notes.join('\n'),
      /FROM python:3\.12-slim rewritten: Python 3\.11 \(Debian bookworm\) for Python 3\.12/,
    );
    await writeFile(path.join(dir, 'environment', 'Dockerfile'), 'FROM swebench/sweb.eval.x86_64.x:latest\n');
    await assert.rejects(loadScenario(dir), /prebuilt SWE-bench task image/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a timeout past the most the validator grants is lowered and noted, not refused', async () => {
  const { parseTaskTomlWithRaw } = await import('./load-scenario.ts');
  const { config, raw } = parseTaskTomlWithRaw('s', '[agent]\ntimeout_sec = 10800.0\n[verifier]\ntimeout_sec = 600\n');
  assert.equal(config.agent.timeout_sec, 7200);
  assert.match(configNotes(config, raw).join('\n'), /\[agent\] timeout_sec = 10800 lowered to 7200/);
});
