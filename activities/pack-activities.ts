// fetchPack and preEval: a verified, canonical, bundled pack in the content-addressed store, then
// pre-evaluation (structure, ownership, static scan, similarity, LLM judge) with its report.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { PackSource } from '../contracts/submission.ts';
import type { PackRef, PreEvalResult } from '../contracts/results.ts';
import { readLocalPack, fetchPackFromUrl } from '../packs/read-pack.ts';
import { packFetchPolicyFromEnvironment } from '../packs/address-policy.ts';
import { packDisplayName, packKindOf } from '../packs/pack-format.ts';
import {
  canonicalJson,
  canonicalPackSchema,
  packHash,
  sha256Hex,
  type CanonicalPack,
} from '../packs/canonical-pack.ts';
import { writeArtifact } from '../common/write-artifact.ts';
import { sharedBlobStore } from '../common/store/open-blob-store.ts';
import { boundRejections } from './payload-bounds.ts';
import {
  artifactNames,
  judgeCacheDir,
  packBundleFile,
  packFile,
  packOwnersDir,
  packStoreDir,
  runDir,
  scenariosDir,
} from '../common/data-layout.ts';
import { PackError } from '../packs/pack-error.ts';
import { bundlePack } from '../packs/bundle-pack.ts';
import { Context } from '@temporalio/activity';
import { PackOwners } from '../screening/pack-owners.ts';
import { loadPreEvalConfig } from '../screening/preeval-config.ts';
import { mergedScenarioFingerprints } from './fingerprint-cache.ts';
import { FileJudgeCache } from '../screening/judge-cache.ts';
import { localOwner, runPreEval } from '../screening/run-preeval.ts';
import { readScenarioInstructions } from '../screening/judge-scenarios.ts';
import type { ActivityDependencies } from './activity-context.ts';

/**
 * A pack already in the content-addressed store is not downloaded again: the store is checked
 * against the hash first (`trl submit` on the local chain puts packs there; a re-evaluated
 * incumbent is found there).
 */
async function fromStoreOrUrl(url: string, sha256: string): Promise<CanonicalPack> {
  const stored = packFile(sha256);
  const text = await readFile(stored, 'utf8').catch(() => undefined);
  if (text !== undefined && sha256Hex(text) === sha256) return canonicalPackSchema.parse(JSON.parse(text));
  return fetchPackFromUrl(url, sha256, { allowAddress: packFetchPolicyFromEnvironment() });
}

export async function fetchPack(source: PackSource): Promise<PackRef> {
  const pack =
    source.kind === 'directory' ? await readLocalPack(source.path) : await fromStoreOrUrl(source.url, source.sha256);
  const hash = packHash(pack);
  const canonical = await writeArtifact(packFile(hash), canonicalJson(pack));
  const kind = packKindOf(pack);
  // TypeScript packs are bundled once here; one that does not bundle is rejected (bundlePack throws
  // PackError). A pack no entry decides is stored as it is: pre-evaluation names every problem.
  const bundleCode = kind === 'typescript' ? (await bundlePack(pack)).code : undefined;
  const bundle = bundleCode !== undefined ? await writeArtifact(packBundleFile(hash), bundleCode) : undefined;
  // The shared store too: sandbox hosts read the pack and its bundle by hash from there (readVerified).
  const store = sharedBlobStore();
  await store.put(canonicalJson(pack));
  if (bundleCode !== undefined) await store.put(bundleCode);
  return {
    packHash: hash,
    canonical,
    fileCount: Object.keys(pack.files).length,
    name: packDisplayName(pack),
    kind,
    bundle,
  };
}

async function readStoredPack(file: string): Promise<CanonicalPack | undefined> {
  try {
    return canonicalPackSchema.parse(JSON.parse(await readFile(file, 'utf8')));
  } catch {
    return undefined;
  }
}

export function createPackActivities(deps: ActivityDependencies) {
  const owners = new PackOwners(packOwnersDir);
  const judgeCache = new FileJudgeCache(judgeCacheDir);

  async function preEval(request: { pack: PackRef; hotkey?: string; scenariosDir?: string }): Promise<PreEvalResult> {
    const { pack: ref } = request;
    const text = await readFile(ref.canonical.path, 'utf8');
    if (sha256Hex(text) !== ref.packHash) {
      throw new PackError(
        'pack_invalid',
        `the stored pack ${ref.canonical.path} no longer matches its hash ${ref.packHash}`,
      );
    }
    const pack = canonicalPackSchema.parse(JSON.parse(text));
    const bundleCode = ref.bundle ? await readFile(ref.bundle.path, 'utf8') : '';
    const dirs = [...new Set([scenariosDir, ...(request.scenariosDir ? [path.resolve(request.scenariosDir)] : [])])];
    const context = Context.current();
    const info = context.info;
    // The worker's steady heartbeat (workers/steady-heartbeat.ts) covers the scans and the judge.
    const report = await runPreEval(
      {
        pack,
        packHash: ref.packHash,
        bundleCode,
        owner: request.hotkey ?? localOwner,
        claimedAt: new Date().toISOString(),
      },
      {
        config: loadPreEvalConfig(),
        owners,
        fingerprints: () => mergedScenarioFingerprints(dirs),
        async earlierPacks() {
          const files = (await readdir(packStoreDir)).filter((name) => /^[0-9a-f]{64}\.json$/.test(name));
          const packs = [];
          for (const file of files) {
            const hash = file.slice(0, 64);
            const stored = await readStoredPack(packFile(hash));
            const owner = await owners.ownerOf(hash);
            if (stored) packs.push({ packHash: hash, owner: owner?.hotkey, claimedAt: owner?.claimedAt, pack: stored });
          }
          return packs;
        },
        judge: { client: deps.upstream, cache: judgeCache, skipped: deps.judgeSkipped },
        scenarioInstructions: () => readScenarioInstructions(dirs),
      },
    );
    const reportRef = await writeArtifact(
      path.join(runDir(info.workflowExecution?.workflowId ?? 'standalone'), artifactNames.preEvalReport),
      JSON.stringify(report, null, 2) + '\n',
    );
    return report.verdict === 'pass'
      ? { verdict: 'pass', report: reportRef }
      : { verdict: 'reject', reasons: boundRejections(report.reasons), report: reportRef };
  }

  return { fetchPack, preEval };
}
