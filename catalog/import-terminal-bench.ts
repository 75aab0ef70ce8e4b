// `trl import-tasks SRC DEST`: Terminal-Bench 1 tasks (task.yaml, Dockerfile, run-tests.sh,
// solution.sh) converted to the Harbor layout the loader reads. A Dockerfile FROM a public image is
// rebuilt FROM the sandbox base image when all it adds is Debian packages and local files; anything
// that needs the internet at build time (pip, curl, git clone, …) is refused with the reason.
import { copyFile, cp, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import yaml from 'js-yaml';

export interface ImportedTask {
  name: string;
  source: string;
  status: 'imported' | 'refused' | 'skipped';
  /** What was changed (or why it was refused), one line each. */
  notes: string[];
}

/** Files of a TB1 task the conversion maps itself; every other file is the image's build context. */
const taskFiles = new Set([
  'task.yaml',
  'Dockerfile',
  'docker-compose.yaml',
  'docker-compose.yml',
  'run-tests.sh',
  'solution.sh',
  'solution.yaml',
  'tests',
]);

/** Build steps that need the internet (the sandbox images build offline, Debian's mirror aside). */
const onlineSteps: [RegExp, string][] = [
  [/\bpip3?\s+install\b|\bpython3?\s+-m\s+pip\s+install\b/, 'pip install (PyPI packages)'],
  [/\buv\s+(pip|sync|add|tool)\b|\buvx\b/, 'uv (PyPI packages)'],
  [/\bcurl\b|\bwget\b/, 'a download (curl / wget)'],
  [/\bgit\s+clone\b/, 'git clone'],
  [/\b(npm|yarn|pnpm)\s+(install|i|add)\b|\bnpx\b/, 'npm packages'],
  [/\bcargo\s+install\b|\bgo\s+(install|get)\b|\bgem\s+install\b|\bconda\b/, 'a language package manager'],
  [/\badd-apt-repository\b|\bapt-key\b|sources\.list/, 'a third-party apt repository'],
];

/** TB1 tasks under src: src itself, its sub-folders, or theirs. */
export async function findTerminalBenchTasks(src: string, depth = 2): Promise<string[]> {
  const isFile = async (file: string) => (await stat(file).catch(() => undefined))?.isFile() === true;
  if (await isFile(path.join(src, 'task.yaml'))) return [src];
  if (depth === 0) return [];
  const found: string[] = [];
  for (const entry of (await readdir(src, { withFileTypes: true }).catch(() => [])).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    if (entry.isDirectory() && !entry.name.startsWith('.'))
      found.push(...(await findTerminalBenchTasks(path.join(src, entry.name), depth - 1)));
  }
  return found;
}

function instructionOf(task: Record<string, unknown>): string | undefined {
  if (typeof task.instruction === 'string') return task.instruction;
  // Early TB1 tasks: descriptions: [{ key: base, description: … }]
  const descriptions = task.descriptions;
  if (Array.isArray(descriptions)) {
    const base =
      descriptions.find((d) => d && typeof d === 'object' && (d as { key?: unknown }).key === 'base') ??
      descriptions[0];
    const text = (base as { description?: unknown } | undefined)?.description;
    if (typeof text === 'string') return text;
  }
  return undefined;
}

function tomlString(value: string): string {
  return JSON.stringify(value);
}

function taskToml(task: Record<string, unknown>): string {
  const lines = [
    'version = "1.0"',
    '# Imported from Terminal-Bench 1 by `trl import-tasks`: no agent_outputs, so the',
    "# verifier starts from a snapshot of the agent's container, as TB1 verifies in it.",
    '',
    '[metadata]',
  ];
  if (typeof task.category === 'string') lines.push(`category = ${tomlString(task.category)}`);
  if (typeof task.difficulty === 'string') lines.push(`difficulty = ${tomlString(task.difficulty)}`);
  const tags = Array.isArray(task.tags) ? task.tags.filter((t): t is string => typeof t === 'string') : [];
  lines.push(`tags = [${tags.map(tomlString).join(', ')}]`);
  if (typeof task.author_email === 'string') lines.push(`author = ${tomlString(task.author_email)}`);
  const seconds = (value: unknown) => (typeof value === 'number' && value > 0 ? value : undefined);
  lines.push('', '[agent]', `timeout_sec = ${Math.min(7200, seconds(task.max_agent_timeout_sec) ?? 600)}`);
  lines.push('', '[verifier]', `timeout_sec = ${Math.min(3600, seconds(task.max_test_timeout_sec) ?? 600)}`);
  lines.push('', '[environment]', 'allow_internet = false', '');
  return lines.join('\n');
}

/** Dockerfile instructions with continuation lines joined. */
function instructions(dockerfile: string): string[] {
  return dockerfile
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
}

/** The Dockerfile FROM the sandbox base image, or why it cannot be. */
export function rewriteDockerfile(dockerfile: string): { dockerfile: string; notes: string[] } | { refused: string } {
  const steps = instructions(dockerfile);
  const froms = steps.filter((step) => /^FROM\s/i.test(step));
  if (froms.length !== 1)
    return { refused: `the Dockerfile has ${froms.length} FROM lines; only single-stage builds are converted` };
  const image = froms[0]!.split(/\s+/)[1] ?? '';
  const notes = [
    `FROM ${image} rewritten to the sandbox base image (Debian bookworm, python3 3.11, pytest); its build runs offline but for Debian's mirror`,
  ];
  let workdir = '/';
  let user = '';
  const kept: string[] = ['ARG BASE_IMAGE=trl-sandbox-base:latest', 'FROM ${BASE_IMAGE}'];
  for (const step of steps) {
    const [keyword = '', ...rest] = step.split(/\s+/);
    const argument = rest.join(' ');
    switch (keyword.toUpperCase()) {
      case 'FROM':
        continue;
      case 'RUN':
        for (const [pattern, what] of onlineSteps)
          if (pattern.test(argument))
            return {
              refused: `the Dockerfile needs more than Debian packages: ${what} in "RUN ${argument.slice(0, 120)}"`,
            };
        break;
      case 'ADD':
        if (/https?:\/\//.test(argument))
          return { refused: `the Dockerfile downloads a file (ADD ${argument.slice(0, 120)})` };
        break;
      case 'WORKDIR':
        workdir = path.posix.resolve(workdir, argument.replace(/^["']|["']$/g, ''));
        break;
      case 'USER':
        user = argument;
        break;
      case 'ENTRYPOINT':
        notes.push(`ENTRYPOINT dropped (${argument.slice(0, 60)}): the sandbox starts its own command`);
        continue;
      default:
        break;
    }
    kept.push(step);
  }
  // TB1 agents work as root; here they are `agent` (uid 1000), so the working directory is handed over.
  if (!user && workdir !== '/') {
    kept.push(`RUN mkdir -p ${workdir} && chown -R agent:agent ${workdir}`);
    notes.push(`the agent runs as agent (uid 1000), not root: ${workdir} (the WORKDIR) is handed to it`);
  }
  return { dockerfile: kept.join('\n') + '\n', notes };
}

/** Terminal-Bench 1's usual run-tests.sh: set up pytest (uv or pip) and run the tests in $TEST_DIR. */
function isStandardRunTests(script: string): boolean {
  return /pytest/.test(script) && /\$\{?TEST_DIR\}?|run-uv-pytest|setup-uv-pytest/.test(script);
}

function testScript(
  runTests: string,
  testsHasOutputs: boolean,
): { script: string; notes: string[] } | { refused: string } {
  const header = [
    '#!/bin/bash',
    "# Written by `trl import-tasks` from the task's run-tests.sh (Terminal-Bench 1).",
    'export TEST_DIR=/tests',
    'mkdir -p /logs/verifier',
  ];
  const reward = [
    'status=$?',
    'if [ "$status" -eq 0 ]; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi',
    'exit 0',
    '',
  ];
  if (isStandardRunTests(runTests)) {
    const target = testsHasOutputs ? '/tests/test_outputs.py' : '/tests';
    return {
      script: [
        ...header,
        `python3 -m pytest --ctrf /logs/verifier/ctrf.json -p no:cacheprovider -rA ${target}`,
        ...reward,
      ].join('\n'),
      notes: [
        "run-tests.sh's pytest set-up (uv / pip, online) replaced by the sandbox's own pytest with the CTRF report",
      ],
    };
  }
  for (const [pattern, what] of onlineSteps)
    if (pattern.test(runTests)) return { refused: `run-tests.sh needs the internet: ${what}` };
  return {
    script: [...header, 'bash /tests/run-tests.sh', ...reward].join('\n'),
    notes: ['run-tests.sh kept and run as is; reward 1 when it exits 0'],
  };
}

async function solutionScript(dir: string): Promise<string | undefined> {
  const shell = await readFile(path.join(dir, 'solution.sh'), 'utf8').catch(() => undefined);
  if (shell !== undefined) return shell;
  const listed = await readFile(path.join(dir, 'solution.yaml'), 'utf8').catch(() => undefined);
  if (listed === undefined) return undefined;
  const steps = yaml.load(listed);
  const commands = Array.isArray(steps)
    ? steps
        .map((step) => (step && typeof step === 'object' ? (step as { command?: unknown }).command : undefined))
        .filter((c): c is string => typeof c === 'string')
    : [];
  return ['#!/bin/bash', '# From solution.yaml by `trl import-tasks`.', 'set -e', ...commands, ''].join('\n');
}

function composeServices(text: string | undefined): number {
  if (text === undefined) return 1;
  const parsed = yaml.load(text) as { services?: Record<string, unknown> } | undefined;
  return Object.keys(parsed?.services ?? {}).length || 1;
}

/** Converts one TB1 task folder into dest/<name>; refusals write nothing. */
export async function importTerminalBenchTask(source: string, destRoot: string): Promise<ImportedTask> {
  const name = path
    .basename(source)
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-');
  const refused = (reason: string): ImportedTask => ({ name, source, status: 'refused', notes: [reason] });
  let task: Record<string, unknown>;
  try {
    const loaded = yaml.load(await readFile(path.join(source, 'task.yaml'), 'utf8'));
    if (!loaded || typeof loaded !== 'object') return refused('task.yaml is not a mapping');
    task = loaded as Record<string, unknown>;
  } catch (error) {
    return refused(`task.yaml is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const instruction = instructionOf(task);
  if (!instruction) return refused('task.yaml has no instruction');
  const read = (file: string) => readFile(path.join(source, file), 'utf8').catch(() => undefined);
  const dockerfile = await read('Dockerfile');
  if (dockerfile === undefined) return refused('no Dockerfile');
  const services = composeServices((await read('docker-compose.yaml')) ?? (await read('docker-compose.yml')));
  if (services > 1)
    return refused(`docker-compose.yaml defines ${services} services; only single-container tasks run here`);
  const rewritten = rewriteDockerfile(dockerfile);
  if ('refused' in rewritten) return refused(rewritten.refused);
  const runTests = await read('run-tests.sh');
  if (runTests === undefined) return refused('no run-tests.sh');
  const testsDir = path.join(source, 'tests');
  const testsHasOutputs =
    (await stat(path.join(testsDir, 'test_outputs.py')).catch(() => undefined))?.isFile() === true;
  const tests = testScript(runTests, testsHasOutputs);
  if ('refused' in tests) return refused(tests.refused);
  const solution = await solutionScript(source);

  const dest = path.join(destRoot, name);
  if (await stat(dest).catch(() => undefined))
    return { name, source, status: 'skipped', notes: [`${dest} exists; left as it is`] };
  await mkdir(path.join(dest, 'environment'), { recursive: true });
  await mkdir(path.join(dest, 'tests'), { recursive: true });
  for (const entry of await readdir(source, { withFileTypes: true })) {
    if (taskFiles.has(entry.name)) continue;
    await cp(path.join(source, entry.name), path.join(dest, 'environment', entry.name), { recursive: true });
  }
  if ((await stat(testsDir).catch(() => undefined))?.isDirectory())
    await cp(testsDir, path.join(dest, 'tests'), { recursive: true });
  if (!tests.notes[0]!.startsWith("run-tests.sh's"))
    await copyFile(path.join(source, 'run-tests.sh'), path.join(dest, 'tests', 'run-tests.sh'));
  await writeFile(path.join(dest, 'tests', 'test.sh'), tests.script, { mode: 0o755 });
  await writeFile(path.join(dest, 'environment', 'Dockerfile'), rewritten.dockerfile);
  await writeFile(path.join(dest, 'instruction.md'), instruction.trimEnd() + '\n');
  await writeFile(path.join(dest, 'task.toml'), taskToml(task));
  const notes = [...rewritten.notes, ...tests.notes];
  if (solution !== undefined) {
    await mkdir(path.join(dest, 'solution'), { recursive: true });
    await writeFile(path.join(dest, 'solution', 'solve.sh'), solution, { mode: 0o755 });
  } else notes.push('no solution.sh or solution.yaml: the oracle cannot run this task');
  return { name, source, status: 'imported', notes };
}

export async function importTerminalBenchTasks(src: string, dest: string): Promise<ImportedTask[]> {
  const sources = await findTerminalBenchTasks(path.resolve(src));
  const results: ImportedTask[] = [];
  for (const source of sources) results.push(await importTerminalBenchTask(source, path.resolve(dest)));
  return results;
}
