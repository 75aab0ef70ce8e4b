// Reads one scenario folder (task.toml, instruction.md, environment/, tests/, solution/) into a typed object.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { taskConfigSchema, type TaskConfig } from '../contracts/task-config.ts';
import { ScenarioError } from './scenario-error.ts';

export interface ScenarioFolder {
  name: string;
  dir: string;
  config: TaskConfig;
  instruction: string;
  /** What the validator does differently from what the task asks (e.g. no internet), for the result. */
  notes: string[];
}

/** Notes a task's configuration earns: settings the validator accepts but does not grant. */
export function configNotes(config: TaskConfig): string[] {
  const notes: string[] = [];
  if (config.environment.allow_internet)
    notes.push(
      "allow_internet = true (Harbor's default) accepted; the validator runs every scenario without egress all the same",
    );
  return notes;
}

const requiredFiles = ['instruction.md', 'environment/Dockerfile', 'tests/test.sh'];

export function parseTaskToml(scenario: string, text: string): TaskConfig {
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
  return parsed.data;
}

export async function loadScenario(dir: string): Promise<ScenarioFolder> {
  const name = path.basename(dir);
  let tomlText: string;
  try {
    tomlText = await readFile(path.join(dir, 'task.toml'), 'utf8');
  } catch {
    throw new ScenarioError(name, `no task.toml in ${dir}`);
  }
  const config = parseTaskToml(name, tomlText);
  for (const file of requiredFiles) {
    const found = await stat(path.join(dir, file)).catch(() => undefined);
    if (!found?.isFile()) throw new ScenarioError(name, `missing ${file}; see the scenario layout in DESIGN.md`);
  }
  const instruction = await readFile(path.join(dir, 'instruction.md'), 'utf8');
  return { name, dir, config, instruction, notes: configNotes(config) };
}
