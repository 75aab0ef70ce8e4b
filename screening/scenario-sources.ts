// Reads what fingerprints are made from out of each scenario folder: the instruction, hidden tests,
// reference solutions and environment files, as text, bounded. A folder that does not load (a draft
// being written, a broken task.toml) is skipped with its reason rather than failing the whole set.
import { createHash } from 'node:crypto';
import { lstat, open, readdir } from 'node:fs/promises';
import path from 'node:path';
import { listAllScenarioFolders } from '../catalog/list-scenarios.ts';
import { loadScenario } from '../catalog/load-scenario.ts';
import { scenariosDir as defaultScenariosDir } from '../common/data-layout.ts';

export type SourceFile = { path: string; text: string };
export type ScenarioSources = {
  name: string;
  instruction: string;
  tests: SourceFile[];
  solutions: SourceFile[];
  environment: SourceFile[];
};
export type SkippedScenario = { name: string; reason: string };

/** Bounds on what is read: fixtures can be large data sets, and only a sample of them is needed. */
export const sourceLimits = { maxFileBytes: 256 * 1024, maxFilesPerFolder: 400 };

async function readHead(file: string, maxBytes: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(maxBytes);
    const { bytesRead } = await handle.read(buffer, 0, maxBytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Text files under `dir` (relative paths, sorted); binaries, symlinks and oversized tails left out. */
async function readTextFiles(dir: string, skip: (relative: string) => boolean = () => false): Promise<SourceFile[]> {
  const found: string[] = [];
  async function walk(relative: string): Promise<void> {
    const entries = await readdir(path.join(dir, relative), { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (found.length >= sourceLimits.maxFilesPerFolder) return;
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(name);
      else if (entry.isFile() && !skip(name)) found.push(name);
    }
  }
  await walk('');
  const files: SourceFile[] = [];
  for (const name of found) {
    const stats = await lstat(path.join(dir, name)).catch(() => undefined);
    if (!stats?.isFile()) continue;
    const bytes = await readHead(path.join(dir, name), Math.min(stats.size, sourceLimits.maxFileBytes)).catch(
      () => undefined,
    );
    if (!bytes || bytes.subarray(0, 8192).includes(0)) continue;
    files.push({ path: name, text: bytes.toString('utf8') });
  }
  return files;
}

export async function readScenarioSources(dir: string): Promise<ScenarioSources> {
  const scenario = await loadScenario(dir);
  return {
    name: scenario.name,
    instruction: scenario.instruction,
    tests: await readTextFiles(path.join(dir, 'tests')),
    solutions: await readTextFiles(path.join(dir, 'solution')),
    environment: await readTextFiles(path.join(dir, 'environment'), (relative) => relative === 'Dockerfile'),
  };
}

export async function readAllScenarioSources(
  scenariosDir: string = defaultScenariosDir,
): Promise<{ sources: ScenarioSources[]; skipped: SkippedScenario[] }> {
  const folders = await listAllScenarioFolders(scenariosDir);
  const sources: ScenarioSources[] = [];
  const skipped: SkippedScenario[] = [];
  for (const folder of folders) {
    try {
      sources.push(await readScenarioSources(folder.dir));
    } catch (error) {
      skipped.push({ name: folder.name, reason: (error as Error).message });
    }
  }
  return { sources, skipped };
}

/** A hash of every text fingerprints are built from: a cached fingerprint set is valid while it matches. */
export function sourcesDigest(sources: readonly ScenarioSources[]): string {
  const hash = createHash('sha256');
  for (const source of [...sources].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    hash.update(`${source.name}\0instruction.md\0${source.instruction}\0`);
    for (const [folder, files] of [
      ['tests', source.tests],
      ['solution', source.solutions],
      ['environment', source.environment],
    ] as const) {
      for (const file of files) hash.update(`${folder}/${file.path}\0${file.text}\0`);
    }
  }
  return hash.digest('hex');
}
