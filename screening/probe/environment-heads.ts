// What the agent would find in a scenario's environment, as the probe's tool results: the files of
// `environment/` (the Dockerfile aside) with the head of their text. Bounded in count and size.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

const maxFiles = 20;
const headChars = 1500;
const maxDepth = 4;

export async function environmentHeads(
  scenarioDir: string,
  options: { headChars?: number } = {},
): Promise<{ name: string; head: string }[]> {
  const keptChars = options.headChars ?? headChars;
  const root = path.join(scenarioDir, 'environment');
  const found: { name: string; head: string }[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (found.length >= maxFiles) return;
      const full = path.join(dir, entry.name);
      const name = path.relative(root, full);
      if (entry.isDirectory() && depth < maxDepth) await walk(full, depth + 1);
      else if (entry.isFile() && name !== 'Dockerfile') {
        const bytes = await readFile(full).catch(() => Buffer.alloc(0));
        const head = bytes
          .subarray(0, keptChars * 4)
          .toString('utf8')
          .slice(0, keptChars);
        found.push({ name, head: head.includes('\u0000') ? '(binary file)' : head });
      }
    }
  };
  await walk(root, 0);
  return found;
}
