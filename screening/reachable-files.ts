// The files of a pack that can matter when it runs: SKILL.md, the entry (policy.ts, policy.py or
// policy.json) and what the entry reaches — relative imports of TypeScript and JavaScript, Python
// imports of pack modules, and files a reachable source names in a string (a data file it opens).
// Never-imported padding is left out, so adding files cannot make a copy look new.
import path from 'node:path';
import type { CanonicalPack } from '../packs/canonical-pack.ts';

const entries = ['policy.ts', 'policy.py', 'policy.json'];
const scriptSuffixes = ['', '.ts', '.mts', '.js', '.mjs', '.json', '/index.ts', '/index.js'];
const importPattern = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["'](\.{1,2}\/[^"'\n]{1,300})["']/g;
const pythonImportPattern = /^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+([\w, ]+)|import[ \t]+([\w., ]+))/gm;

function scriptImports(file: string, text: string, files: Set<string>): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(importPattern)) {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1]!));
    const hit = scriptSuffixes.map((suffix) => `${target}${suffix}`).find((candidate) => files.has(candidate));
    if (hit) found.push(hit);
  }
  return found;
}

function pythonImports(file: string, text: string, files: Set<string>): string[] {
  const found: string[] = [];
  const moduleFiles = (name: string) => {
    const base = name.replace(/^\.+/, '').replace(/\./g, '/');
    const dir = name.startsWith('.') ? path.posix.dirname(file) : '.';
    return [`${base}.py`, `${base}/__init__.py`]
      .map((candidate) => path.posix.normalize(path.posix.join(dir, candidate)))
      .filter((candidate) => files.has(candidate));
  };
  for (const match of text.matchAll(pythonImportPattern)) {
    if (match[1] !== undefined) {
      found.push(...moduleFiles(match[1]));
      // `from . import helpers` / `from pkg import helpers`: the names may be modules too.
      for (const name of match[2]!.split(','))
        found.push(
          ...moduleFiles(`${match[1].endsWith('.') ? match[1] : `${match[1]}.`}${name.trim().split(/\s+/)[0]}`),
        );
    } else for (const name of match[3]!.split(',')) found.push(...moduleFiles(name.trim().split(/\s+/)[0]!));
  }
  return found;
}

/** Paths of the reachable files, sorted. */
export function reachableFiles(pack: CanonicalPack): string[] {
  const files = new Set(Object.keys(pack.files));
  const reached = new Set<string>();
  const queue = ['SKILL.md', ...entries].filter((name) => files.has(name));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (reached.has(file)) continue;
    reached.add(file);
    const text = pack.files[file]!;
    if (!/\.(?:[cm]?[jt]sx?|py)$/i.test(file)) continue;
    const next = file.endsWith('.py') ? pythonImports(file, text, files) : scriptImports(file, text, files);
    // A file named in a string of reachable code is read at run time (open('hints.txt')).
    for (const other of files)
      if (
        !reached.has(other) &&
        (text.includes(`'${other}'`) ||
          text.includes(`"${other}"`) ||
          text.includes(`/${other}'`) ||
          text.includes(`/${other}"`))
      )
        next.push(other);
    queue.push(...next.filter((name) => !reached.has(name)));
  }
  return [...reached].sort();
}
