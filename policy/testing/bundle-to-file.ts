// Bundles a pack (a directory or files in memory) and writes the bundle where the runner can import it.
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundlePack } from '../../packs/bundle-pack.ts';
import { readPackDirectory } from '../../packs/read-pack.ts';
import type { CanonicalPack } from '../../packs/canonical-pack.ts';

export const examplesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'examples');

export async function writeBundle(pack: CanonicalPack): Promise<string> {
  const { code } = await bundlePack(pack);
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'trl-bundle-')), 'policy.bundle.mjs');
  await writeFile(file, code);
  return file;
}

/** Bundles policy/examples/<name> to a temporary file. */
export async function bundleExample(name: string): Promise<string> {
  return writeBundle(await readPackDirectory(path.join(examplesDir, name)));
}

/** Bundles a one-file policy given as source text (the SDK is importable as usual). */
export async function bundleSource(source: string, extra: Record<string, string> = {}): Promise<string> {
  return writeBundle({ schema_version: 1, files: { 'SKILL.md': '# test\n', 'policy.ts': source, ...extra } });
}
