// `trl import-tasks SRC DEST`: Terminal-Bench 1 tasks (task.yaml, Dockerfile, run-tests.sh,
// solution.sh) converted to the Harbor layout the loader reads. The Dockerfile keeps its FROM (the
// scenario build resolves public bases); its RUN lines are read as package-manager calls, and what
// needs a host other than Debian's mirror and the package registries is refused with the reason.
import { copyFile, cp, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import yaml from 'js-yaml';
import { taskBuild } from '../sandbox/compose-build.ts';
import { parseDockerfile } from '../sandbox/dockerfile-rewrite.ts';
import { dockerfileNeeds, unreachableNeed, type StepNeed } from './dockerfile-steps.ts';
import { rewriteDockerfile } from './tb1-dockerfile.ts';
import { onlineRefusal } from './online-needs.ts';
import { loadScenario } from './load-scenario.ts';
import { hostRegistryEndpoints } from '../sandbox/registry-endpoints.ts';

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

/** TB1 tasks (task.yaml) and Harbor tasks (task.toml) under src: src itself, its sub-folders, or theirs. */
export async function findTerminalBenchTasks(src: string, depth = 2): Promise<string[]> {
  const isFile = async (file: string) => (await stat(file).catch(() => undefined))?.isFile() === true;
  if ((await isFile(path.join(src, 'task.yaml'))) || (await isFile(path.join(src, 'task.toml')))) return [src];
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
  const online = dockerfileNeeds(runTests, { script: true }).find(
    (need) => need.kind !== 'debian' && !servedByRegistryTape(need),
  );
  if (online)
    return {
      refused: `run-tests.sh fetches at verify time from what no registry tape serves: "${'command' in online ? online.command : ''}"`,
    };
  const installs = dockerfileNeeds(runTests, { script: true }).filter(servedByRegistryTape);
  return {
    script: [...header, 'bash /tests/run-tests.sh', ...reward].join('\n'),
    notes: [
      'run-tests.sh kept and run as is; reward 1 when it exits 0',
      ...(installs.length ? [registryTapeNote(installs)] : []),
    ],
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

/** Whether a COPY or ADD of the Dockerfile takes `name` (a file or folder of the task) from the build context. */
export function copiedByDockerfile(dockerfile: string, name: string): boolean {
  return parseDockerfile(dockerfile).some((instruction) => {
    if (instruction.keyword !== 'COPY' && instruction.keyword !== 'ADD') return false;
    const sources = instruction.argument
      .split(/\s+/)
      .filter((word) => !word.startsWith('--'))
      .slice(0, -1);
    return sources.some(
      (source) => source.replace(/^\.\//, '').replace(/\/$/, '').split('/')[0] === name || source === '.',
    );
  });
}

/** Converts one TB1 task folder into dest/<name>; refusals write nothing. */
export async function importTerminalBenchTask(
  source: string,
  destRoot: string,
  reachableHosts: ReadonlySet<string> = new Set(),
): Promise<ImportedTask> {
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
  const rewritten = rewriteDockerfile(dockerfile, reachableHosts);
  if ('refused' in rewritten) return refused(rewritten.refused);
  const onlineReason = await onlineRefusal(source, dockerfile, source, reachableHosts);
  if (onlineReason) return refused(onlineReason);
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
    // A task file the Dockerfile itself copies into the image (tests/, solution.sh, …) stays in the build context too.
    if (taskFiles.has(entry.name) && !copiedByDockerfile(dockerfile, entry.name)) continue;
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

/** Hosts of the package registries this host is configured with: downloads from them are reached. */
async function reachableRegistryHosts(): Promise<Set<string>> {
  const endpoints = await hostRegistryEndpoints();
  const hosts = new Set<string>();
  for (const url of [endpoints.goProxy, endpoints.npmRegistry, endpoints.pipIndexUrl])
    if (url) hosts.add(new URL(url).hostname.toLowerCase());
  return hosts;
}

/**
 * A Harbor-layout task (task.toml): validated as the loader and the build will take it, then copied
 * to dest unchanged; the notes say what the build will rewrite and what will not work offline.
 */
export async function importHarborTask(
  source: string,
  destRoot: string,
  reachableHosts: ReadonlySet<string>,
): Promise<ImportedTask> {
  const name = path.basename(source);
  const refused = (reason: string): ImportedTask => ({ name, source, status: 'refused', notes: [reason] });
  let folder;
  try {
    folder = await loadScenario(source);
  } catch (error) {
    return refused((error as Error).message.replace(/^scenario [^:]+: /, ''));
  }
  const dockerfile = await readFile(path.join(source, 'environment', 'Dockerfile'), 'utf8');
  const unreachable = unreachableNeed(dockerfileNeeds(dockerfile), reachableHosts);
  if (unreachable) return refused(`the Dockerfile needs ${unreachable}`);
  const onlineReason = await onlineRefusal(
    source,
    dockerfile,
    (await taskBuild(source, parseDockerfile(dockerfile))).contextDir,
    reachableHosts,
  );
  if (onlineReason) return refused(onlineReason);
  const notes = ['Harbor task: copied unchanged', ...folder.notes];
  const testScript = await readFile(path.join(source, 'tests', 'test.sh'), 'utf8');
  const testNeeds = dockerfileNeeds(testScript, { script: true }).filter((need) => need.kind !== 'debian');
  const online = testNeeds.find((need) => !servedByRegistryTape(need));
  if (online)
    notes.push(
      `tests/test.sh fetches at verify time ("${'command' in online ? online.command : ''}") from what no registry tape serves: the verifier will fail unless the image already has it`,
    );
  else if (testNeeds.length) notes.push(registryTapeNote(testNeeds));
  if (!(await stat(path.join(source, 'solution', 'solve.sh')).catch(() => undefined)))
    notes.push('no solution/solve.sh: the oracle cannot run this task');
  const dest = path.join(destRoot, name);
  if (await stat(dest).catch(() => undefined))
    return { name, source, status: 'skipped', notes: [`${dest} exists; left as it is`] };
  await cp(source, dest, { recursive: true });
  return { name, source, status: 'imported', notes };
}

export async function importTerminalBenchTasks(src: string, dest: string): Promise<ImportedTask[]> {
  const sources = await findTerminalBenchTasks(path.resolve(src));
  const reachableHosts = await reachableRegistryHosts();
  const results: ImportedTask[] = [];
  for (const source of sources) {
    const harbor = (await stat(path.join(source, 'task.toml')).catch(() => undefined))?.isFile();
    results.push(
      harbor
        ? await importHarborTask(source, path.resolve(dest), reachableHosts)
        : await importTerminalBenchTask(source, path.resolve(dest), reachableHosts),
    );
  }
  return results;
}

/**
 * A verify-time install the registry tape serves (activities/registry-tape.ts): PyPI, npm, the Go
 * module proxy, crates.io, and astral.sh's uv installer (rewritten to uv's PyPI wheel).
 */
function servedByRegistryTape(need: StepNeed): boolean {
  if (need.kind === 'registry')
    return need.registry === 'pypi' || need.registry === 'npm' || need.registry === 'go' || need.registry === 'crates';
  return need.kind === 'download' && need.host === 'astral.sh' && /\/uv\/([^/\s]+\/)?install\.sh/.test(need.url);
}

function registryTapeNote(needs: StepNeed[]): string {
  const commands = needs.map((need) => ('command' in need ? need.command : '')).filter(Boolean);
  return `installs at verify time (${commands
    .slice(0, 3)
    .map((command) => `"${command.slice(0, 80)}"`)
    .join(', ')}): rehearsed once per image without agent output and served from a registry tape`;
}
