// Reads one scenario folder (task.toml, instruction.md, environment/, tests/, solution/) into a typed object.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { maxTimeoutSec, taskConfigSchema, type TaskConfig } from '../contracts/task-config.ts';
import { ScenarioError } from './scenario-error.ts';
import { ComposeBuildError, taskBuild } from '../sandbox/compose-build.ts';
import { parseDockerfile, planBuild, planNotes } from '../sandbox/dockerfile-rewrite.ts';

export interface ScenarioFolder {
  name: string;
  dir: string;
  config: TaskConfig;
  instruction: string;
  /** What the validator does differently from what the task asks (e.g. no internet), for the result. */
  notes: string[];
  /** Built FROM a public base (python:3.12-slim, …): a task written for Harbor, not on this validator's base. */
  publicBase: boolean;
}

/**
 * Notes a task's configuration earns: settings the validator accepts but does not grant, and keys it
 * does not read. `raw` is the parsed TOML as written (without it, only what the typed config says).
 */
export function configNotes(config: TaskConfig, raw?: Record<string, unknown>): string[] {
  const notes: string[] = [];
  const environment = (raw?.environment ?? {}) as Record<string, unknown>;
  const declared = raw === undefined || 'allow_internet' in environment;
  if (config.environment.allow_internet && declared)
    notes.push('allow_internet = true accepted; the validator runs every scenario without egress all the same');
  if (typeof environment.gpus === 'number' && environment.gpus > 0)
    notes.push(`[environment] gpus = ${environment.gpus} asked; sandboxes have no GPU`);
  if (Array.isArray(environment.mcp_servers) && environment.mcp_servers.length > 0)
    notes.push('[environment] mcp_servers declared; no MCP server is started here');
  for (const section of ['agent', 'verifier'] as const) {
    const asked = (raw?.[section] as Record<string, unknown> | undefined)?.timeout_sec;
    if (typeof asked === 'number' && asked > maxTimeoutSec[section])
      notes.push(
        `[${section}] timeout_sec = ${asked} lowered to ${maxTimeoutSec[section]}, the most the validator grants`,
      );
  }
  if (raw) notes.push(...unknownKeyNotes(raw));
  return notes;
}

/** Keys of task.toml that Harbor or this validator reads; [metadata] is free-form. */
const knownKeys: Record<string, readonly string[] | 'any'> = {
  '': [
    'version',
    'schema_version',
    'agent_outputs',
    'metadata',
    'task',
    'agent',
    'verifier',
    'solution',
    'environment',
  ],
  metadata: 'any',
  task: 'any',
  agent: ['timeout_sec', 'max_turns', 'user', 'env'],
  verifier: ['timeout_sec', 'user', 'env'],
  solution: ['env'],
  environment: [
    'cpus',
    'memory_mb',
    'memory',
    'storage_mb',
    'storage',
    'allow_internet',
    'workdir',
    'env',
    'build_timeout_sec',
    'gpus',
    'mcp_servers',
    'docker_image',
  ],
};

/** One note per key the validator does not read (e.g. `[agent] outputs`): reported, not dropped silently. */
export function unknownKeyNotes(raw: Record<string, unknown>): string[] {
  const notes: string[] = [];
  const check = (section: string, table: Record<string, unknown>) => {
    const known = knownKeys[section];
    if (known === 'any' || known === undefined) return;
    for (const key of Object.keys(table)) {
      if (!known.includes(key)) {
        notes.push(
          `task.toml ${section ? `[${section}] ` : ''}${key} is not a key Harbor or this validator reads: ignored`,
        );
        continue;
      }
      const value = table[key];
      if (section === '' && key in knownKeys && value && typeof value === 'object' && !Array.isArray(value))
        check(key, value as Record<string, unknown>);
    }
  };
  check('', raw);
  return notes;
}

const requiredFiles: [string, string][] = [
  ['instruction.md', 'the task statement the agent receives'],
  ['environment/Dockerfile', "the task's image"],
  [
    'tests/test.sh',
    'the verifier: it runs the tests and writes /logs/verifier/reward.txt or ctrf.json (test/fixtures/harbor-tasks/ has examples)',
  ],
];

export function parseTaskToml(scenario: string, text: string): TaskConfig {
  return parseTaskTomlWithRaw(scenario, text).config;
}

/** The typed config and the TOML as written (for the notes on keys it does not read). */
export function parseTaskTomlWithRaw(
  scenario: string,
  text: string,
): { config: TaskConfig; raw: Record<string, unknown> } {
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (error) {
    throw new ScenarioError(scenario, `task.toml is not valid TOML: ${(error as Error).message}`);
  }
  const parsed = taskConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `field "${issue.path.join('.')}": ${issue.message}`);
    throw new ScenarioError(scenario, `task.toml ${problems.join('; ')}`);
  }
  return { config: parsed.data, raw: raw as Record<string, unknown> };
}

export async function loadScenario(dir: string): Promise<ScenarioFolder> {
  const name = path.basename(dir);
  let tomlText: string;
  try {
    tomlText = await readFile(path.join(dir, 'task.toml'), 'utf8');
  } catch {
    throw new ScenarioError(name, `no task.toml in ${dir}`);
  }
  const { config, raw } = parseTaskTomlWithRaw(name, tomlText);
  const environment = (raw.environment ?? {}) as Record<string, unknown>;
  if (typeof environment.docker_image === 'string' && environment.docker_image)
    throw new ScenarioError(
      name,
      `[environment] docker_image = ${JSON.stringify(environment.docker_image)} asks for a prebuilt task image, which no registry here serves; this validator builds environment/Dockerfile`,
    );
  for (const [file, what] of requiredFiles) {
    const found = await stat(path.join(dir, file)).catch(() => undefined);
    if (!found?.isFile()) throw new ScenarioError(name, `missing ${file} (${what}); add it to ${dir}`);
  }
  const instruction = await readFile(path.join(dir, 'instruction.md'), 'utf8');
  const dockerfile = await readFile(path.join(dir, 'environment', 'Dockerfile'), 'utf8');
  const plan = planBuild(dockerfile);
  if (plan.kind === 'refused') throw new ScenarioError(name, plan.reason);
  const build = await taskBuild(dir, parseDockerfile(dockerfile)).catch((error: unknown) => {
    throw error instanceof ComposeBuildError ? new ScenarioError(name, error.message) : error;
  });
  return {
    name,
    dir,
    config,
    instruction,
    notes: [...build.notes, ...planNotes(plan), ...configNotes(config, raw)],
    publicBase: plan.kind === 'rewrite' && plan.stages.size > 0,
  };
}
