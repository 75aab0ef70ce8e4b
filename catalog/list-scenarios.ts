// The scenario set to evaluate: every folder with a task.toml under a scenarios directory, or a named subset.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { scenariosDir as defaultScenariosDir } from '../common/paths.ts';
import type { ScenarioDescriptor } from '../contracts/results.ts';
import { ScenarioError } from './scenario-error.ts';

export async function listScenarioFolders(dir: string = defaultScenariosDir): Promise<ScenarioDescriptor[]> {
  const root = path.resolve(dir);
  const entries = await readdir(root, { withFileTypes: true }).catch(() => {
    throw new ScenarioError(root, `the scenarios directory ${root} does not exist`);
  });
  const found: ScenarioDescriptor[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const toml = await stat(path.join(root, entry.name, 'task.toml')).catch(() => undefined);
    if (toml?.isFile()) found.push({ name: entry.name, dir: path.join(root, entry.name) });
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

export async function selectScenarios(names: string[], dir?: string): Promise<ScenarioDescriptor[]> {
  const all = await listScenarioFolders(dir);
  if (names.length === 0) return all;
  const byName = new Map(all.map((s) => [s.name, s]));
  const unknown = names.filter((n) => !byName.has(n));
  if (unknown.length > 0) {
    throw new ScenarioError(unknown.join(', '), `no such scenario; available: ${all.map((s) => s.name).join(', ') || '(none)'}`);
  }
  return [...new Set(names)].map((n) => byName.get(n)!);
}
