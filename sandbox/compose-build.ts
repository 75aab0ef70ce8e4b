// Where a Harbor task's image is built from. Harbor builds environment/ with environment/Dockerfile,
// unless the task's environment/docker-compose.yaml gives its `main` service another build context
// (`context: ${CONTEXT_DIR}/..`: the task folder, so the Dockerfile can COPY a folder beside environment/).
// The context is honoured inside the task folder only, and tests/ and solution/ never enter it: the
// hidden tests and the oracle's answer stay out of every image.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import yaml from 'js-yaml';

export interface ComposeBuild {
  /** The folder sent as the build context. */
  contextDir: string;
  /** The Dockerfile's path inside the context (forward slashes). */
  dockerfile: string;
  /** Paths of the context (relative, forward slashes) that are left out of it: the task's tests and solution. */
  excluded: string[];
  /** What differs from Harbor's default, said per task; none when the task builds environment/ itself. */
  notes: string[];
}

/** A compose file Harbor reads beside the Dockerfile; the first that exists is the task's. */
const composeNames = ['docker-compose.yaml', 'docker-compose.yml', 'compose.yaml', 'compose.yml'];
const maxComposeBytes = 64 * 1024;
/** Folders of the task that hold what the agent must not see. */
const hiddenFolders = ['tests', 'solution'];

export class ComposeBuildError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'ComposeBuildError';
  }
}

/** Harbor's variables in a compose path: CONTEXT_DIR is the environment folder. */
function substitute(value: string, environmentDir: string): string {
  return value.replace(/\$\{CONTEXT_DIR\}|\$CONTEXT_DIR\b/g, environmentDir);
}

function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The main service's build section of a parsed compose file, or undefined when it has none. */
function mainBuild(document: unknown, file: string): { context?: unknown; dockerfile?: unknown } | undefined {
  if (document === null || document === undefined) return undefined;
  if (typeof document !== 'object' || Array.isArray(document))
    throw new ComposeBuildError(`environment/${file} is not a mapping of compose keys; fix its top level`);
  const services = (document as Record<string, unknown>).services;
  if (services === undefined) return undefined;
  if (typeof services !== 'object' || services === null || Array.isArray(services))
    throw new ComposeBuildError(`environment/${file}: services is not a mapping of service names; fix it`);
  const main = (services as Record<string, unknown>).main;
  if (main === undefined || main === null || typeof main !== 'object') return undefined;
  const build = (main as Record<string, unknown>).build;
  if (build === undefined) return undefined;
  if (typeof build === 'string') return { context: build };
  if (typeof build !== 'object' || build === null || Array.isArray(build))
    throw new ComposeBuildError(`environment/${file}: services.main.build is neither a path nor a mapping; fix it`);
  return build as { context?: unknown; dockerfile?: unknown };
}

/** The build a task asks for: environment/ by default, or its compose file's context inside the task folder. */
export async function composeBuild(taskDir: string): Promise<ComposeBuild> {
  const environmentDir = path.resolve(taskDir, 'environment');
  const standard: ComposeBuild = { contextDir: environmentDir, dockerfile: 'Dockerfile', excluded: [], notes: [] };
  let file: string | undefined;
  for (const name of composeNames)
    if ((await stat(path.join(environmentDir, name)).catch(() => undefined))?.isFile()) {
      file = name;
      break;
    }
  if (!file) return standard;
  const full = path.join(environmentDir, file);
  if ((await stat(full)).size > maxComposeBytes)
    throw new ComposeBuildError(
      `environment/${file} is over ${maxComposeBytes / 1024} KB; a task's compose file is a few lines`,
    );
  let document: unknown;
  try {
    document = yaml.load(await readFile(full, 'utf8'), { schema: yaml.JSON_SCHEMA });
  } catch (error) {
    throw new ComposeBuildError(`environment/${file} is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const build = mainBuild(document, file);
  if (!build || (build.context === undefined && build.dockerfile === undefined)) return standard;
  if (build.context !== undefined && typeof build.context !== 'string')
    throw new ComposeBuildError(`environment/${file}: services.main.build.context is not a path; fix it`);
  if (build.dockerfile !== undefined && typeof build.dockerfile !== 'string')
    throw new ComposeBuildError(`environment/${file}: services.main.build.dockerfile is not a path; fix it`);
  const root = path.resolve(taskDir);
  const contextDir = path.resolve(environmentDir, substitute(build.context ?? '.', environmentDir));
  if (!isInside(root, contextDir))
    throw new ComposeBuildError(
      `environment/${file} builds from ${JSON.stringify(build.context)}, outside the task folder; a task's image is built from the task's own files`,
    );
  // Compose resolves the Dockerfile against the context; Harbor's tasks name it by CONTEXT_DIR.
  const dockerfilePath = path.resolve(contextDir, substitute(build.dockerfile ?? 'Dockerfile', environmentDir));
  if (!isInside(contextDir, dockerfilePath))
    throw new ComposeBuildError(
      `environment/${file}: the Dockerfile ${JSON.stringify(build.dockerfile)} is outside its build context ${JSON.stringify(build.context)}`,
    );
  if (contextDir === environmentDir && dockerfilePath === path.join(environmentDir, 'Dockerfile')) return standard;
  const excluded = hiddenFolders
    .map((folder) => path.join(root, folder))
    .filter((folder) => isInside(contextDir, folder))
    .map((folder) => path.relative(contextDir, folder).split(path.sep).join('/'));
  const shown = path.relative(root, contextDir).split(path.sep).join('/') || 'the task folder';
  return {
    contextDir,
    dockerfile: path.relative(contextDir, dockerfilePath).split(path.sep).join('/'),
    excluded,
    notes: [
      `built from ${shown} as environment/${file} asks (Harbor's default is environment/)${excluded.length ? `, without ${excluded.map((folder) => `${folder}/`).join(' and ')}: the hidden tests and the solution never enter the image` : ''}`,
    ],
  };
}

/** Whether a context path (relative, forward slashes) is one the build leaves out. */
export function isExcluded(build: ComposeBuild, relative: string): boolean {
  return build.excluded.some((folder) => relative === folder || relative.startsWith(`${folder}/`));
}

/** The sources of a COPY / ADD line (not --from, not URLs, not heredocs, no variables or globs to expand). */
function copySources(argument: string): string[] {
  const trimmed = argument.trim();
  let words: string[];
  if (trimmed.startsWith('[')) {
    try {
      words = (JSON.parse(trimmed) as unknown[]).filter((word): word is string => typeof word === 'string');
    } catch {
      return [];
    }
  } else words = trimmed.split(/\s+/);
  if (words.some((word) => word.startsWith('--from'))) return [];
  const paths = words.filter((word) => !word.startsWith('--'));
  return paths
    .slice(0, -1)
    .filter((source) => !/^<<|^[a-z]+:\/\/|[$*?[]/i.test(source))
    .map((source) => source.replace(/^\.\/|^\/+/, ''));
}

/** COPY / ADD sources (relative to the context) that the build's context does not have. */
async function missingSources(
  build: ComposeBuild,
  instructions: readonly { keyword: string; argument: string }[],
): Promise<{ keyword: string; source: string }[]> {
  const missing: { keyword: string; source: string }[] = [];
  for (const { keyword, argument } of instructions) {
    if (keyword !== 'COPY' && keyword !== 'ADD') continue;
    for (const source of copySources(argument)) {
      if (source === '' || source === '.') continue;
      const full = path.resolve(build.contextDir, source);
      const inContext = isInside(build.contextDir, full) && !isExcluded(build, path.relative(build.contextDir, full));
      if (!inContext || !(await stat(full).catch(() => undefined))) missing.push({ keyword, source });
    }
  }
  return missing;
}

/**
 * The build of a task as it will run: its compose file's context (composeBuild), or — when environment/Dockerfile
 * copies folders that sit beside environment/ and no compose file says to build from there (the same task
 * published elsewhere with one does) — the task folder, with the hidden folders left out, and said. A COPY of
 * what neither has (or of tests/ or solution/) is refused before a build rather than failing one.
 */
export async function taskBuild(
  taskDir: string,
  instructions: readonly { keyword: string; argument: string }[],
): Promise<ComposeBuild> {
  const build = await composeBuild(taskDir);
  const missing = await missingSources(build, instructions);
  if (!missing.length) return build;
  const root = path.resolve(taskDir);
  const standard = build.contextDir === path.join(root, 'environment') && build.dockerfile === 'Dockerfile';
  if (standard) {
    const fromRoot: ComposeBuild = {
      contextDir: root,
      dockerfile: 'environment/Dockerfile',
      excluded: [...hiddenFolders],
      notes: [],
    };
    const stillMissing = await missingSources(fromRoot, instructions);
    if (!stillMissing.length)
      return {
        ...fromRoot,
        notes: [
          `built from the task folder, without tests/ and solution/: environment/Dockerfile copies ${missing.map((m) => `${m.source}`).join(', ')} from beside environment/ (Harbor's default context), with no compose file saying so`,
        ],
      };
  }
  const first = missing[0]!;
  const hidden = hiddenFolders.some((folder) => first.source === folder || first.source.startsWith(`${folder}/`));
  const context = path.relative(root, build.contextDir).split(path.sep).join('/') || '.';
  throw new ComposeBuildError(
    `the task does not build as published: ${first.keyword} ${first.source} names what its build context (${context}/) does not have${hidden ? ': the tests and the solution never enter an image' : ''}`,
  );
}
