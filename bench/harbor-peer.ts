// Harbor's trial runner (PyPI `harbor`), the peer of bench/sandbox.ts: installed into a venv under
// .cache by the bench itself, with Docker's Compose v2 plugin it needs (Debian ships none; built
// with `go install` into a DOCKER_CONFIG of its own). One trial = `harbor trials start -a oracle
// -e docker` on a copy of the scenario folder; its result.json gives Harbor's own phase times.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, readdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { dockerComposePluginDir, harborVenvDir } from '../common/data-layout.ts';

export const harborVersion = '0.25.0';
export const composeVersion = 'v2.29.7';
const composeModule = `github.com/docker/compose/v2/cmd@${composeVersion}`;

export type Ready<T> = T | { reason: string };

interface RunOutput {
  code: number | null;
  output: string;
  wallMs: number;
}

function run(
  command: string,
  args: string[],
  options: { timeoutMs: number; env?: NodeJS.ProcessEnv; cwd?: string },
): Promise<RunOutput> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: options.env ?? process.env,
      cwd: options.cwd,
    });
    let output = '';
    const keep = (bytes: Buffer) => {
      output = (output + bytes.toString('utf8')).slice(-8000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: -1, output: error.message, wallMs: performance.now() - started });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output, wallMs: performance.now() - started });
    });
  });
}

const lastLines = (text: string, count: number) => text.trim().split('\n').slice(-count).join(' | ').slice(0, 600);

/** A Python ≥ 3.12 (Harbor's floor): on PATH, else one of pyenv's versions. */
async function findPython(): Promise<string | undefined> {
  const candidates = ['python3.13', 'python3.12', 'python3'];
  const pyenvRoot = (await run('pyenv', ['root'], { timeoutMs: 10_000 })).output.trim();
  if (pyenvRoot && existsSync(path.join(pyenvRoot, 'versions'))) {
    for (const version of (await readdir(path.join(pyenvRoot, 'versions'))).sort().reverse())
      candidates.push(path.join(pyenvRoot, 'versions', version, 'bin', 'python3'));
  }
  for (const candidate of candidates) {
    const probed = await run(candidate, ['-c', 'import sys; print(sys.version_info >= (3, 12))'], {
      timeoutMs: 10_000,
    });
    if (probed.code === 0 && probed.output.trim() === 'True') return candidate;
  }
  return undefined;
}

/** The venv's `harbor` executable, installing it first. */
export async function ensureHarbor(installTimeoutMs: number): Promise<Ready<{ executable: string }>> {
  const venv = harborVenvDir(harborVersion);
  const executable = path.join(venv, 'bin', 'harbor');
  if (existsSync(executable)) return { executable };
  const python = await findPython();
  if (!python) return { reason: `harbor ${harborVersion} needs Python >= 3.12 and none was found (PATH, pyenv)` };
  await mkdir(path.dirname(venv), { recursive: true });
  const made = await run(python, ['-m', 'venv', venv], { timeoutMs: 120_000 });
  if (made.code !== 0) return { reason: `${python} -m venv failed: ${lastLines(made.output, 2)}` };
  const installed = await run(
    path.join(venv, 'bin', 'pip'),
    ['install', '--quiet', '--disable-pip-version-check', `harbor==${harborVersion}`],
    { timeoutMs: installTimeoutMs },
  );
  if (installed.code !== 0 || !existsSync(executable))
    return { reason: `pip install harbor==${harborVersion} failed: ${lastLines(installed.output, 3)}` };
  return { executable };
}

/** A DOCKER_CONFIG folder whose cli-plugins/ holds Compose v2, built with `go install` when missing. */
export async function ensureComposePlugin(buildTimeoutMs: number): Promise<Ready<{ dockerConfigDir: string }>> {
  const dockerConfigDir = dockerComposePluginDir(composeVersion);
  const plugin = path.join(dockerConfigDir, 'cli-plugins', 'docker-compose');
  if (!existsSync(plugin)) {
    const binDir = path.join(dockerConfigDir, 'bin');
    await mkdir(binDir, { recursive: true });
    const built = await run('go', ['install', composeModule], {
      timeoutMs: buildTimeoutMs,
      env: { ...process.env, GOBIN: binDir, CGO_ENABLED: '0' },
    });
    if (built.code !== 0) return { reason: `go install ${composeModule} failed: ${lastLines(built.output, 3)}` };
    await mkdir(path.dirname(plugin), { recursive: true });
    // The module's main package is cmd/, so go names the binary `cmd`.
    await rename(path.join(binDir, 'cmd'), plugin);
  }
  const env = { ...process.env, DOCKER_CONFIG: dockerConfigDir };
  const version = await run('docker', ['compose', 'version'], { timeoutMs: 30_000, env });
  if (version.code !== 0)
    return { reason: `docker compose version failed with the built plugin: ${lastLines(version.output, 2)}` };
  return { dockerConfigDir };
}

/**
 * The scenario as Harbor runs it. Harbor 0.25's Docker environment enforces `allow_internet =
 * false` only through its egress-control sidecar, which needs an image from a registry; so the
 * copy declares the network public and cuts it itself with a compose override (`network_mode:
 * none`, what our sandbox uses). The Dockerfile's base is pinned to the exact base image tag.
 */
export async function harborTaskCopy(scenarioDir: string, destination: string, baseImageTag: string): Promise<string> {
  const task = path.join(destination, path.basename(scenarioDir));
  await cp(scenarioDir, task, { recursive: true });
  const tomlFile = path.join(task, 'task.toml');
  await writeFile(
    tomlFile,
    (await readFile(tomlFile, 'utf8')).replace(/^allow_internet\s*=\s*false\s*$/m, 'allow_internet = true'),
  );
  const dockerfile = path.join(task, 'environment', 'Dockerfile');
  await writeFile(
    dockerfile,
    (await readFile(dockerfile, 'utf8')).replace(/^ARG BASE_IMAGE=.*$/m, `ARG BASE_IMAGE=${baseImageTag}`),
  );
  await writeFile(
    path.join(task, 'environment', 'docker-compose.yaml'),
    'services:\n  main:\n    network_mode: none\n',
  );
  return task;
}

const timing = z.object({ started_at: z.string().nullish(), finished_at: z.string().nullish() }).nullish();
const trialResult = z.object({
  started_at: z.string().nullish(),
  finished_at: z.string().nullish(),
  environment_setup: timing,
  agent_setup: timing,
  agent_execution: timing,
  verifier: timing,
  verifier_result: z.object({ rewards: z.record(z.string(), z.number()).nullish() }).nullish(),
  exception_info: z
    .object({ exception_type: z.string().nullish(), exception_message: z.string().nullish() })
    .passthrough()
    .nullish(),
});

export interface HarborTrial {
  wallMs: number;
  /** result.json's started → finished: the trial without the CLI's own start and exit. */
  trialMs?: number;
  /** Harbor's own phase times from result.json, in ms (absent when Harbor did not record one). */
  phasesMs: {
    environmentSetup?: number;
    agentSetup?: number;
    agentExecution?: number;
    handOver?: number;
    verifier?: number;
    afterVerifier?: number;
  };
  reward?: number;
}

const spanMs = (span: z.infer<typeof timing>) =>
  span?.started_at && span.finished_at ? Date.parse(span.finished_at) - Date.parse(span.started_at) : undefined;

/** One oracle trial; throws with Harbor's own words when it fails. */
export async function runHarborTrial(request: {
  executable: string;
  dockerConfigDir: string;
  taskDir: string;
  trialsDir: string;
  trialName: string;
  timeoutMs: number;
}): Promise<HarborTrial> {
  const env = { ...process.env, DOCKER_CONFIG: request.dockerConfigDir };
  await mkdir(request.trialsDir, { recursive: true });
  const ran = await run(
    request.executable,
    [
      'trials',
      'start',
      '-p',
      request.taskDir,
      '-a',
      'oracle',
      '-e',
      'docker',
      '--trials-dir',
      request.trialsDir,
      '--trial-name',
      request.trialName,
    ],
    { timeoutMs: request.timeoutMs, env, cwd: request.trialsDir },
  );
  const resultFile = path.join(request.trialsDir, request.trialName, 'result.json');
  if (!existsSync(resultFile))
    throw new Error(
      `harbor trials start exited ${ran.code} without ${path.basename(resultFile)}: ${lastLines(ran.output, 4)}`,
    );
  const result = trialResult.parse(JSON.parse(await readFile(resultFile, 'utf8')));
  if (result.exception_info)
    throw new Error(
      `Harbor's trial failed: ${result.exception_info.exception_type ?? ''} ${result.exception_info.exception_message ?? ''}`
        .trim()
        .slice(0, 600),
    );
  const at = (time: string | null | undefined) => (time ? Date.parse(time) : undefined);
  const gap = (from: number | undefined, to: number | undefined) =>
    from !== undefined && to !== undefined ? to - from : undefined;
  return {
    wallMs: ran.wallMs,
    trialMs: gap(at(result.started_at), at(result.finished_at)),
    phasesMs: {
      environmentSetup: spanMs(result.environment_setup),
      agentSetup: spanMs(result.agent_setup),
      agentExecution: spanMs(result.agent_execution),
      handOver: gap(at(result.agent_execution?.finished_at), at(result.verifier?.started_at)),
      verifier: spanMs(result.verifier),
      afterVerifier: gap(at(result.verifier?.finished_at), at(result.finished_at)),
    },
    reward: result.verifier_result?.rewards?.reward,
  };
}

/** Containers and networks of Harbor's compose projects whose name starts with `prefix` (a trial stopped before its
 * `down`). */
export async function removeHarborProjects(prefix: string): Promise<void> {
  const label = 'com.docker.compose.project';
  for (const kind of ['container', 'network'] as const) {
    const listed = await run(
      'docker',
      [
        kind,
        'ls',
        ...(kind === 'container' ? ['--all'] : []),
        '--filter',
        `label=${label}`,
        '--format',
        `{{.ID}} {{.Label "${label}"}}`,
      ],
      { timeoutMs: 30_000 },
    );
    const ids = listed.output
      .split('\n')
      .map((line) => line.trim().split(' '))
      .filter(([id, project]) => id && project?.startsWith(prefix))
      .map(([id]) => id!);
    if (ids.length > 0)
      await run('docker', kind === 'container' ? ['rm', '-f', ...ids] : ['network', 'rm', ...ids], {
        timeoutMs: 60_000,
      });
  }
}

/** Harbor's image names (`hb__<content hash>`); its trials remove their own with `down --rmi local`. */
export async function listHarborImages(): Promise<string[]> {
  const listed = await run(
    'docker',
    ['images', '--format', '{{.Repository}}:{{.Tag}}', '--filter', 'reference=hb__*'],
    { timeoutMs: 30_000 },
  );
  return listed.output
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/** Removes Harbor images that were not there before the bench (a trial that failed before its `down`). */
export async function removeNewHarborImages(before: string[]): Promise<void> {
  const added = (await listHarborImages()).filter((image) => !before.includes(image));
  if (added.length > 0) await run('docker', ['rmi', '-f', ...added], { timeoutMs: 60_000 });
}
