// A Dockerfile's RUN lines read as package-manager calls (apt-get install LIST, pip install LIST,
// curl URL | sh, git clone URL, …), not as words: `curl` in an apt-get install list is a Debian
// package, not a download. What each call needs decides whether the build can run here: Debian's
// mirror and the package registries (PyPI, npm, the Go module proxy, crates.io, Maven Central) are
// reached; any other host is not.
import { parseDockerfile } from '../sandbox/dockerfile-rewrite.ts';
import { isGoReleaseDownload } from '../sandbox/go-release-tarball.ts';
import { isNodeSourceSetup } from '../sandbox/nodesource-setup.ts';
import { isUvInstaller } from '../sandbox/registry-tape/verify-time-installs.ts';

export type StepNeed =
  | { kind: 'debian'; packages: string[] }
  | { kind: 'registry'; registry: 'pypi' | 'npm' | 'go' | 'crates' | 'maven' | 'gems'; command: string }
  | { kind: 'download'; url: string; host: string; piped: boolean; command: string }
  | { kind: 'git-clone'; url: string; host: string; command: string }
  | { kind: 'third-party-apt'; command: string }
  | { kind: 'alpine'; command: string };

/** Splits a shell command line into simple commands at ;, &&, ||, | and newlines (quotes respected). */
export function simpleCommands(script: string): { words: string[]; pipedFrom?: string[] }[] {
  const out: { words: string[]; pipedFrom?: string[] }[] = [];
  let words: string[] = [];
  let word = '';
  let quote: '"' | "'" | undefined;
  let piped: string[] | undefined;
  const endWord = () => {
    if (word) words.push(word);
    word = '';
  };
  const endCommand = (pipe: boolean) => {
    endWord();
    if (words.length) out.push({ words, ...(piped ? { pipedFrom: piped } : {}) });
    piped = pipe && words.length ? words : undefined;
    words = [];
  };
  for (let i = 0; i < script.length; i++) {
    const c = script[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else word += c;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '\\' && script[i + 1] === '\n') i++;
    else if (/\s/.test(c) && c !== '\n') endWord();
    else if (c === ';' || c === '\n' || c === '(' || c === ')') endCommand(false);
    else if (c === '&' && script[i + 1] === '&') endCommand(false), i++;
    else if (c === '|' && script[i + 1] === '|') endCommand(false), i++;
    else if (c === '|') endCommand(true);
    else word += c;
  }
  endCommand(false);
  return out;
}

const hostOf = (url: string) => /^[a-z+]+:\/\/([^/:@]+)/i.exec(url)?.[1]?.toLowerCase() ?? url;

/** What one simple command needs from outside the image, if anything. */
function needOf(words: string[], pipedFrom: string[] | undefined): StepNeed | undefined {
  // Skip wrappers: sudo, env assignments, `set -x; …`.
  let start = 0;
  while (start < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[start]!) || words[start] === 'sudo')) start++;
  const [tool = '', ...args] = words.slice(start);
  const command = words.join(' ').slice(0, 160);
  const name = tool.split('/').pop()!;
  const sub = args.find((arg) => !arg.startsWith('-'));
  if ((name === 'apt-get' || name === 'apt') && sub === 'install')
    return {
      kind: 'debian',
      packages: args.filter((arg) => !arg.startsWith('-') && arg !== 'install' && !arg.includes('=')),
    };
  if (name === 'add-apt-repository' || name === 'apt-key' || /sources\.list/.test(command))
    return { kind: 'third-party-apt', command };
  if (name === 'apk') return { kind: 'alpine', command };
  if (/^pip[0-9.]*$/.test(name) && sub === 'install') return { kind: 'registry', registry: 'pypi', command };
  if (/^python[0-9.]*$/.test(name) && args[0] === '-m' && /^pip$/.test(args[1] ?? '') && args.includes('install'))
    return { kind: 'registry', registry: 'pypi', command };
  if ((name === 'uv' && /^(pip|sync|add|tool|run|venv)$/.test(sub ?? '')) || name === 'uvx')
    return { kind: 'registry', registry: 'pypi', command };
  if (/^(npm|yarn|pnpm)$/.test(name) && /^(install|i|add|ci)$/.test(sub ?? ''))
    return { kind: 'registry', registry: 'npm', command };
  if (name === 'npx') return { kind: 'registry', registry: 'npm', command };
  if (name === 'go' && /^(install|get|mod)$/.test(sub ?? '')) return { kind: 'registry', registry: 'go', command };
  if (name === 'cargo' && /^(install|build|fetch)$/.test(sub ?? ''))
    return { kind: 'registry', registry: 'crates', command };
  if (/^(mvn|gradle)$/.test(name)) return { kind: 'registry', registry: 'maven', command };
  if (name === 'gem' && sub === 'install') return { kind: 'registry', registry: 'gems', command };
  if (name === 'git' && sub === 'clone') {
    const url = args.find((arg) => /:\/\/|@.*:/.test(arg)) ?? '';
    return { kind: 'git-clone', url, host: hostOf(url), command };
  }
  if (name === 'curl' || name === 'wget') {
    const url = args.find((arg) => /^https?:\/\//.test(arg));
    if (url) return { kind: 'download', url, host: hostOf(url), piped: false, command };
  }
  if (/^(sh|bash|zsh)$/.test(name) && pipedFrom) {
    const from = needOf(pipedFrom, undefined);
    if (from?.kind === 'download') return { ...from, piped: true, command: `${from.command} | ${command}` };
  }
  return undefined;
}

/** Every need of every RUN line of a Dockerfile (or of a shell script, with `script: true`). */
export function dockerfileNeeds(text: string, options: { script?: boolean } = {}): StepNeed[] {
  const scripts = options.script
    ? [text]
    : parseDockerfile(text)
        .filter((instruction) => instruction.keyword === 'RUN')
        .map((instruction) => instruction.argument.replace(/^--\S+\s+/g, ''));
  const needs: StepNeed[] = [];
  for (const script of scripts)
    for (const { words, pipedFrom } of simpleCommands(script)) {
      const need = needOf(words, pipedFrom);
      if (!need) continue;
      // `curl URL | sh`: one need, the installer piped to a shell, in place of the bare download.
      const last = needs.at(-1);
      if (need.kind === 'download' && need.piped && last?.kind === 'download' && last.url === need.url) needs.pop();
      needs.push(need);
    }
  return needs;
}

/**
 * Why the build cannot run here, if it cannot: a download or clone from a host that is no package
 * registry this machine reaches (`reachableHosts`), a third-party apt source, Alpine's apk.
 */
export function unreachableNeed(needs: StepNeed[], reachableHosts: ReadonlySet<string>): string | undefined {
  for (const need of needs) {
    if (need.kind === 'third-party-apt')
      return `a third-party apt source ("${need.command}"): only Debian's own mirror is reached here`;
    if (need.kind === 'alpine') return `Alpine's apk ("${need.command}"): the sandbox images are Debian`;
    // Go's release tarball by curl: the build repacks the same release from the Go module proxy.
    if (need.kind === 'download' && !need.piped && isGoReleaseDownload(need.url, need.command)) continue;
    // NodeSource's setup script piped to a shell: the build installs that Node.js from the npm registry.
    if (need.kind === 'download' && need.piped && isNodeSourceSetup(need.url)) continue;
    // astral.sh's uv installer piped to a shell: the build installs the same uv from its PyPI wheel.
    if (need.kind === 'download' && need.piped && isUvInstaller(need.url)) continue;
    if ((need.kind === 'download' || need.kind === 'git-clone') && !reachableHosts.has(need.host))
      return `${need.kind === 'git-clone' ? 'git clone from' : need.piped ? 'an installer piped to a shell from' : 'a download from'} ${need.host} ("${need.command}"), a host this machine cannot reach (only the package registries are)`;
  }
  return undefined;
}
