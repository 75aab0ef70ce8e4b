// The pack's files as the sidecar sees them: every file but SKILL.md, written into a folder of the
// attempt that is bind-mounted read-only at /policy. Names are checked again here (relative, no
// `..`, no absolute path) whatever the pack format checked before.
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The file that goes to the agent's /workspace, never to the policy. */
export const skillFileName = 'SKILL.md';
const maxFiles = 256;

export function checkPolicyFileName(name: string): string | undefined {
  if (name.length === 0 || name.length > 255) return 'empty or longer than 255 characters';
  if (name.startsWith('/') || name.includes('\\') || name.includes('\0'))
    return 'must be a relative path with forward slashes';
  const parts = name.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..'))
    return 'must not contain empty, "." or ".." segments';
  return undefined;
}

/** Writes the files (uid 65534 can read them; nobody in the container can write them); returns the folder. */
export async function writePolicyFiles(dir: string, files: Record<string, string>): Promise<string> {
  const names = Object.keys(files).filter((name) => name !== skillFileName);
  if (names.length > maxFiles) throw new Error(`a pack has at most ${maxFiles} files (got ${names.length})`);
  await mkdir(dir, { recursive: true, mode: 0o755 });
  await chmod(dir, 0o755);
  for (const name of names) {
    const problem = checkPolicyFileName(name);
    if (problem) throw new Error(`pack file name "${name.slice(0, 100)}": ${problem}`);
    const target = path.join(dir, ...name.split('/'));
    await mkdir(path.dirname(target), { recursive: true, mode: 0o755 });
    await writeFile(target, files[name]!, { mode: 0o644 });
  }
  return dir;
}
