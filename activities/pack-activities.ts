// fetchPack and preEval: a verified, canonical pack in the content-addressed store, then its checks.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PackSource } from '../contracts/submission.ts';
import type { PackRef, PreEvalResult } from '../contracts/results.ts';
import { readPackDirectory, fetchPackFromUrl } from '../packs/read-pack.ts';
import { canonicalJson, canonicalPackSchema, packHash, sha256Hex } from '../packs/canonical-pack.ts';
import { checkPackStructure } from '../packs/manifest.ts';
import { writeArtifact } from '../artifacts/write-artifact.ts';
import { packStoreDir } from '../common/paths.ts';
import { PackError } from '../packs/pack-error.ts';
import { bundlePack } from '../policy/bundle-pack.ts';

export async function fetchPack(source: PackSource): Promise<PackRef> {
  const pack = source.kind === 'directory' ? await readPackDirectory(source.path) : await fetchPackFromUrl(source.url, source.sha256);
  const hash = packHash(pack);
  const canonical = await writeArtifact(path.join(packStoreDir, `${hash}.json`), canonicalJson(pack));
  // Bundled once here; a pack that does not bundle is rejected (bundlePack throws PackError).
  const bundled = await bundlePack(pack);
  const bundle = await writeArtifact(path.join(packStoreDir, `${hash}.bundle.mjs`), bundled.code);
  const name = typeof pack.manifest.name === 'string' ? pack.manifest.name : undefined;
  return { packHash: hash, canonical, fileCount: Object.keys(pack.files).length, name, bundle };
}

export async function preEval(pack: PackRef): Promise<PreEvalResult> {
  const text = await readFile(pack.canonical.path, 'utf8');
  if (sha256Hex(text) !== pack.packHash) {
    throw new PackError('pack_invalid', `the stored pack ${pack.canonical.path} no longer matches its hash ${pack.packHash}`);
  }
  const parsed = canonicalPackSchema.parse(JSON.parse(text));
  const reasons = checkPackStructure(parsed);
  return reasons.length === 0 ? { verdict: 'pass' } : { verdict: 'reject', reasons };
}
