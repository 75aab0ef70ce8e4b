// What a task reaches online beyond its Dockerfile's own RUN lines: a build step that runs a script of
// the build context (a media fetcher, a `uv run setup.py` that loads a data set), the oracle's solution
// (a model it downloads), the tests (an external judge they submit to). Read from the sources, not
// guessed from words: a URL literal counts only in a file that makes network calls, and the Hugging Face
// Hub only by its loaders called with a repository id. Loopback and service names (no dot) are local;
// the package registries are reached. Whatever else is named is a host this machine cannot reach.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseDockerfile } from '../sandbox/dockerfile-rewrite.ts';
import { simpleCommands } from './dockerfile-steps.ts';

export interface OnlineUse {
  host: string;
  /** The file (relative to the task) and the text that reaches it. */
  file: string;
  evidence: string;
}

const networkCall =
  /\b(?:requests\.(?:get|post|put|head|Session)|httpx\.|aiohttp\.|urlopen|urlretrieve|urllib\.request|http\.client|urllib3\.|wget\b|curl\b|fetch\()/;
const hubLoaders: RegExp[] = [
  /\b(?:hf_hub_download|snapshot_download|hf_hub_url|list_repo_files)\s*\(/,
  // A repository id (owner/name) as the first argument; a local path starts with / or . and a builder has no slash.
  /\bload_dataset\s*\(\s*(["'])(?![./])[\w.-]+\/[\w.-]+\1/,
  /\.from_pretrained\s*\(\s*(["'])(?![./~])[\w.-]+(?:\/[\w.-]+)?\1/,
  /\bpipeline\s*\([^)]*\bmodel\s*=\s*(["'])(?![./~])[\w.-]+\/[\w.-]+\1/,
  // fsspec's Hub paths (pandas.read_parquet("hf://datasets/owner/name/…")).
  /(["'])hf:\/\/(?:datasets|models|spaces)\/[\w.-]+\/[\w.-]+/,
];
const localHost = /^(?:localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[?::1\]?|host\.docker\.internal)$/;

function withoutComments(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n');
}

/**
 * Python's triple-quoted strings blanked out, line breaks kept: docstrings, and the source a test writes
 * to a file to lint or run, are text, not calls this file makes. One pass.
 */
export function withoutTripleQuoted(text: string): string {
  const opening = /"""|'''/g;
  let out = '';
  let at = 0;
  for (let match = opening.exec(text); match; match = opening.exec(text)) {
    const end = text.indexOf(match[0], match.index + 3);
    const stop = end < 0 ? text.length : end + 3;
    out += text.slice(at, match.index) + text.slice(match.index, stop).replace(/[^\n]/g, ' ');
    at = stop;
    opening.lastIndex = stop;
  }
  return out + text.slice(at);
}

/** Hosts a Python or shell source reaches at run time, with the text that shows it; reachable hosts left out. */
export function hostsReached(text: string, file: string, reachableHosts: ReadonlySet<string>): OnlineUse[] {
  const code = withoutComments(file.endsWith('.py') ? withoutTripleQuoted(text) : text);
  const uses: OnlineUse[] = [];
  for (const loader of hubLoaders) {
    const match = loader.exec(code);
    if (match) uses.push({ host: 'huggingface.co', file, evidence: match[0].replace(/\s+/g, ' ').slice(0, 120) });
  }
  // `name = 'owner/model'` … `from_pretrained(name)`: the loader called with a variable holding a repository id.
  for (const call of code.matchAll(/\.from_pretrained\s*\(\s*([A-Za-z_]\w*)\s*[,)]/g)) {
    const assigned = new RegExp(`\\b${call[1]}\\s*=\\s*(["'])((?![./~])[\\w.-]+(?:/[\\w.-]+)?)\\1`).exec(code);
    if (assigned)
      uses.push({ host: 'huggingface.co', file, evidence: `${call[0]} with ${call[1]} = "${assigned[2]}"` });
  }
  if (networkCall.test(code))
    for (const match of code.matchAll(/\bhttps?:\/\/([A-Za-z0-9.-]+)(?::\d+)?[^\s"'`)]*/g)) {
      // After an escaped quote the URL is in a string inside a string: source text the file writes, not a call.
      if (/\\["']$/.test(code.slice(Math.max(0, match.index - 2), match.index))) continue;
      const host = match[1]!.toLowerCase();
      if (localHost.test(host) || !host.includes('.') || reachableHosts.has(host)) continue;
      uses.push({ host, file, evidence: match[0].slice(0, 120) });
    }
  return uses.filter((use) => !reachableHosts.has(use.host));
}

/** Text files under dir (at most `depth` levels, `limit` files, each up to 256 KB) whose name passes `accept`. */
async function sourceFiles(dir: string, accept: (name: string) => boolean, depth = 3, limit = 400): Promise<string[]> {
  const out: string[] = [];
  const walk = async (at: string, level: number): Promise<void> => {
    const entries = await readdir(at, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (out.length >= limit) return;
      const full = path.join(at, entry.name);
      if (entry.isDirectory() && level < depth && !entry.name.startsWith('.')) await walk(full, level + 1);
      else if (entry.isFile() && accept(entry.name) && ((await stat(full)).size ?? 0) <= 256 * 1024) out.push(full);
    }
  };
  await walk(dir, 0);
  return out;
}

const isSource = (name: string) => /\.(?:py|sh|js|mjs|ts)$/.test(name);

async function usesIn(files: string[], root: string, reachableHosts: ReadonlySet<string>): Promise<OnlineUse[]> {
  const uses: OnlineUse[] = [];
  for (const file of files)
    uses.push(...hostsReached(await readFile(file, 'utf8'), path.relative(root, file), reachableHosts));
  return uses;
}

/**
 * Scripts of the build context that a RUN line runs (`python X.py ARGS`, `bash X.sh`, `uv run X.py`), with
 * the context files named in their arguments (a manifest of URLs): what they download at build time.
 */
export async function buildScriptUses(
  dockerfile: string,
  contextDir: string,
  taskDir: string,
  reachableHosts: ReadonlySet<string>,
): Promise<OnlineUse[]> {
  const contextFiles = await sourceFiles(contextDir, () => true, 4, 2000);
  const byName = (name: string) => contextFiles.filter((file) => path.basename(file) === path.posix.basename(name));
  const uses: OnlineUse[] = [];
  for (const instruction of parseDockerfile(dockerfile).filter((i) => i.keyword === 'RUN'))
    for (const { words } of simpleCommands(instruction.argument)) {
      const [tool = '', ...args] = words;
      const name = tool.split('/').pop()!;
      const runner = /^(?:python[0-9.]*|bash|sh|node)$/.test(name) || (name === 'uv' && args[0] === 'run');
      if (!runner) continue;
      const operands = args.filter((arg) => !arg.startsWith('-') && arg !== 'run');
      const script = operands.find((arg) => /\.(?:py|sh|js|mjs)$/.test(arg));
      if (!script) continue;
      for (const file of byName(script)) {
        const text = await readFile(file, 'utf8');
        const found = hostsReached(text, path.relative(taskDir, file), reachableHosts);
        // The context's own modules it imports (`from model import Model` → model.py), one level down.
        for (const module of text.matchAll(/^\s*(?:from|import)\s+([A-Za-z_]\w*)/gm))
          for (const imported of byName(`${module[1]}.py`).filter((other) => other !== file))
            found.push(
              ...hostsReached(await readFile(imported, 'utf8'), path.relative(taskDir, imported), reachableHosts),
            );
        // A script that downloads: the hosts its argument files (a manifest) name are where it goes.
        if (networkCall.test(withoutComments(text)) || found.length)
          for (const operand of operands.filter((arg) => arg !== script))
            for (const manifest of byName(operand)) {
              const listed = await readFile(manifest, 'utf8');
              for (const match of listed.matchAll(/\bhttps?:\/\/([A-Za-z0-9.-]+)[^\s"'`]*/g)) {
                const host = match[1]!.toLowerCase();
                if (!localHost.test(host) && host.includes('.') && !reachableHosts.has(host))
                  found.push({ host, file: path.relative(taskDir, manifest), evidence: match[0].slice(0, 120) });
              }
            }
        uses.push(...found);
      }
    }
  return uses;
}

/** The oracle's solution (solution/ or a TB1 solution.sh) and the tests' sources: what they reach at run time. */
export async function runTimeUses(
  taskDir: string,
  reachableHosts: ReadonlySet<string>,
): Promise<{ solution: OnlineUse[]; tests: OnlineUse[] }> {
  const solutionFiles = [
    ...(await sourceFiles(path.join(taskDir, 'solution'), isSource)),
    ...(await sourceFiles(taskDir, (name) => name === 'solution.sh', 0)),
  ];
  // test.sh's own installs are the registry tape's (catalog/import-terminal-bench.ts); the tests' code is read here.
  const testFiles = await sourceFiles(path.join(taskDir, 'tests'), (name) => /\.(?:py|js|mjs|ts)$/.test(name));
  return {
    solution: await usesIn(solutionFiles, taskDir, reachableHosts),
    tests: await usesIn(testFiles, taskDir, reachableHosts),
  };
}

/** The refusal for a task that needs a host this machine cannot reach, or undefined. */
export async function onlineRefusal(
  taskDir: string,
  dockerfile: string,
  contextDir: string,
  reachableHosts: ReadonlySet<string>,
): Promise<string | undefined> {
  const build = await buildScriptUses(dockerfile, contextDir, taskDir, reachableHosts);
  const hosts = (uses: OnlineUse[]) => [...new Set(uses.map((use) => use.host))].join(', ');
  const first = (uses: OnlineUse[]) => `${uses[0]!.file}: "${uses[0]!.evidence}"`;
  if (build.length)
    return `the build runs a script that downloads from ${hosts(build)} (${first(build)}), a host this machine cannot reach (only the package registries are)`;
  const { solution, tests } = await runTimeUses(taskDir, reachableHosts);
  if (tests.length)
    return `online by design: the tests reach ${hosts(tests)} at verify time (${first(tests)}), a host this machine cannot reach`;
  if (solution.length)
    return `online by design: the oracle's solution fetches from ${hosts(solution)} at run time (${first(solution)}), a host this machine cannot reach (the agent's run has no network)`;
  return undefined;
}
