// The scenario set to evaluate: the registry's active set (or every folder with a task.toml when
// a directory has no registry), or a named subset.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { scenariosDir as defaultScenariosDir } from '../common/data-layout.ts';
import type { ScenarioDescriptor } from '../contracts/results.ts';
import { ScenarioError } from './scenario-error.ts';
import { readRegistry } from './registry.ts';

/** Task folders one level down, or two (a dataset grouped in sub-folders), as Harbor finds them. */
const searchDepth = 2;

async function findTaskFolders(
  dir: string,
  depth: number,
  found: ScenarioDescriptor[],
  legacy: string[],
): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const folder = path.join(dir, entry.name);
    const isFile = async (name: string) =>
      (await stat(path.join(folder, name)).catch(() => undefined))?.isFile() === true;
    if (await isFile('task.toml')) found.push({ name: entry.name, dir: folder });
    else if (await isFile('task.yaml')) legacy.push(folder);
    else if (depth > 1) await findTaskFolders(folder, depth - 1, found, legacy);
  }
}

/** Every scenario folder in dir (or one sub-folder deeper), active or not. */
export async function listAllScenarioFolders(dir: string = defaultScenariosDir): Promise<ScenarioDescriptor[]> {
  const root = path.resolve(dir);
  const rootStat = await stat(root).catch(() => undefined);
  if (!rootStat?.isDirectory()) throw new ScenarioError(root, `the scenarios directory ${root} does not exist`);
  const found: ScenarioDescriptor[] = [];
  const legacy: string[] = [];
  await findTaskFolders(root, searchDepth, found, legacy);
  if (found.length === 0) {
    const why = legacy.length
      ? `it holds ${legacy.length} Terminal-Bench 1 task(s) (task.yaml, e.g. ${path.relative(root, legacy[0]!)}); convert them with \`trl import-tasks ${root} DEST\` and use DEST`
      : `no folder in it (or one level deeper) has a task.toml; a task is a folder with task.toml, instruction.md, environment/Dockerfile and tests/test.sh`;
    throw new ScenarioError(root, `no scenarios found: ${why}`);
  }
  const byName = new Map<string, string>();
  for (const scenario of found) {
    const earlier = byName.get(scenario.name);
    if (earlier)
      throw new ScenarioError(
        scenario.name,
        `two task folders share this name (${earlier} and ${scenario.dir}); scenario names must be unique`,
      );
    byName.set(scenario.name, scenario.dir);
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
  if (missing.length > 0)
    throw new ScenarioError(missing.join(', '), `listed in registry.json but has no folder with a task.toml`);
  return [...registry.active].sort().map((name) => byName.get(name)!);
}

/** Named scenarios may be any folder (retired ones included); no names means the active set. */
export async function selectScenarios(names: string[], dir?: string): Promise<ScenarioDescriptor[]> {
  if (names.length === 0) return listScenarioFolders(dir);
  const all = await listAllScenarioFolders(dir);
  const byName = new Map(all.map((s) => [s.name, s]));
  const unknown = names.filter((n) => !byName.has(n));
  if (unknown.length > 0) {
    throw new ScenarioError(
      unknown.join(', '),
      `no such scenario; available: ${all.map((s) => s.name).join(', ') || '(none)'}`,
    );
  }
  return [...new Set(names)].map((n) => byName.get(n)!);
}
