// The pre-evaluation corpus for tests: honest and gaming packs under test/fixtures/packs, and the
// example policies (honest by definition), read as canonical packs.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '../../common/data-layout.ts';
import type { CanonicalPack } from '../../packs/canonical-pack.ts';
import { readPackDirectory } from '../../packs/read-pack.ts';

export const corpusDir = path.join(repoRoot, 'test', 'fixtures', 'packs');
export const examplesDir = path.join(repoRoot, 'policy', 'examples');

export type CorpusPack = { name: string; group: 'honest' | 'gaming' | 'example'; dir: string; pack: CanonicalPack };

async function readGroup(dir: string, group: CorpusPack['group']): Promise<CorpusPack[]> {
  const entries = (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    entries.map(async (name) => ({
      name,
      group,
      dir: path.join(dir, name),
      pack: await readPackDirectory(path.join(dir, name)),
    })),
  );
}

export async function readCorpus(): Promise<CorpusPack[]> {
  return [
    ...(await readGroup(examplesDir, 'example')),
    ...(await readGroup(path.join(corpusDir, 'honest'), 'honest')),
    ...(await readGroup(path.join(corpusDir, 'gaming'), 'gaming')),
  ];
}

export function byName(corpus: readonly CorpusPack[], name: string): CorpusPack {
  const found = corpus.find((entry) => entry.name === name);
  if (!found) throw new Error(`no corpus pack ${name}`);
  return found;
}
