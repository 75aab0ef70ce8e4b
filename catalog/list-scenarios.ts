// The scenario set to evaluate: the registry's active set (or every folder with a task.toml when
// a directory has no registry), or a named subset.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { scenariosDir as defaultScenariosDir } from '../common/data-layout.ts';
import type { ScenarioDescriptor } from '../contracts/results.ts';
import { ScenarioError } from './scenario-error.ts';
import { readRegistry } from './registry.ts';

/** Every scenario folder in dir, active or not. */
export async function listAllScenarioFolders(dir: string = defaultScenariosDir): Promise<ScenarioDescriptor[]> {
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

/** The active set: the registry's list when there is one, else every folder. */
export async function listScenarioFolders(dir: string = defaultScenariosDir): Promise<ScenarioDescriptor[]> {
  const all = await listAllScenarioFolders(dir);
  const registry = await readRegistry(path.resolve(dir));
  if (!registry) return all;
  const byName = new Map(all.map((s) => [s.name, s]));
  const missing = registry.active.filter((name) => !byName.has(name));
  if (missing.length > 0) throw new ScenarioError(missing.join(', '), `listed in registry.json but has no folder with a task.toml`);
  return [...registry.active].sort().map((name) => byName.get(name)!);
}

/** Named scenarios may be any folder (retired ones included); no names means the active set. */
export async function selectScenarios(names: string[], dir?: string): Promise<ScenarioDescriptor[]> {
  if (names.length === 0) return listScenarioFolders(dir);
  const all = await listAllScenarioFolders(dir);
  const byName = new Map(all.map((s) => [s.name, s]));
  const unknown = names.filter((n) => !byName.has(n));
  if (unknown.length > 0) {
    throw new ScenarioError(unknown.join(', '), `no such scenario; available: ${all.map((s) => s.name).join(', ') || '(none)'}`);
  }
  return [...new Set(names)].map((n) => byName.get(n)!);
}
