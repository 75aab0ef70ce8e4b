// The command table: what `trl help` prints (`usage`) and the options each command's parser accepts
// (`commandOptions`). cli/main.ts parses with these; test/layout/docs-links.test.ts checks every `trl …`
// line in README.md and docs/ against them. Loading it loads no command.
import type { ParseArgsConfig } from 'node:util';
import { defaultAgent } from '../contracts/agent-kinds.ts';
import { defaultServeSettings } from '../workers/serve-settings.ts';
import { defaultSeatPollSec, defaultShadowCapUsd, defaultShadowRate } from './commands/serve-defaults.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Keeps each command's option literals (types, defaults) so that parseArgs types its values. */
function options<T extends Options>(spec: T): T {
  return spec;
}

export const usage = `usage: trl <command> [options]

  up                         start the embedded stack (Temporal dev server + Web UI, worker, sim fleet,
                             local chain, the seat's cycle Schedule) and keep it running; the worker
                             has both roles (orchestration and sandbox host)
  worker --role ROLE         one role against the Temporal at TRL_TEMPORAL_ADDRESS, until interrupted:
                             orchestration (workflows, pre-evaluation, probe, aggregation, seat, chain) or
                             sandbox (claims scenarios; prepare, run and verify on this host's own queue)
  eval <pack>                evaluate a policy pack directory on the active scenarios
      --scenario NAME          only this scenario (repeatable)
      --scenarios-dir DIR      scenario folders in the standard layout from another directory
      --agent NAME             hermes (default: the competition agent, through the policy),
                               loop (a small built-in agent, through the policy),
                               oracle, partial or null (validator-side test agents, no policy:
                               solution/solve.sh, solution/partial.sh, nothing)
      --seed N                 seed recorded with the run (default 0)
      --tape WORKFLOW-ID       answer the policy's model calls from that run's recording, at $0 (matched by request
                               fingerprint; the first request it lacks ends the scenario naming call and field)
      --id SUBMISSION-ID       the submission id (workflow evaluate-<id>); an id runs once (see rerun)
      --json                   print the evaluation result as JSON
  scenarios [--json] [--collect]
                             list the active scenarios with category, difficulty and test count
      --collect                count with pytest inside each scenario image (no network; never on the host)
  images save [--out FILE]   write the sandbox base image and the policy images on it to one archive
                             (default .cache/images/, named by the base's recipe hash); a machine whose cache
                             holds the archive of its recipe loads it instead of building (debootstrap)
  images load FILE           load such an archive, if it is of this checkout's recipe
  import-tasks SRC DEST      convert Terminal-Bench 1 tasks (task.yaml, run-tests.sh; found up to two folders
                             below SRC) to the Harbor layout under DEST, saying per task what changed or why not
  pack <dir> [--out FILE]    print a pack's hash; --out writes its canonical JSON
  submit <pack>              commit a pack: on the local chain (default) store it and commit it for a
                             miner hotkey; on Subtensor print the commitment to make
      --hotkey URI             local chain: the miner's dev key (default //TrlMiner), registered if new
      --url URL                where validators download the pack (required on Subtensor)
  seat [--json]              the seat: incumbent, challenge in progress, queue, recent decisions
      --report                 write a decision's evidence page (HTML: both sides per scenario, margin, the bootstrap
                               distribution and its bound) from its file under the data directory; no Temporal needed
      --decision N             with --report: that decision (default the latest)
      --out FILE               with --report: where to write it (default beside the decision file)
  consensus [--json]         Yuma consensus preview from all validators' weights and stakes
  runs                       evaluations from Temporal visibility: id, when, pack, hotkey, status, tests, cost
      --status S               completed, incomplete, rejected, running, queued
      --hotkey H               the miner's hotkey
      --pack P                 pack hash (or its first characters)
      --since DATE             started since DATE
      --limit N                at most N rows (default 50)
  show <workflow-id>         a run's per-scenario table and every artifact's path
      --scenario NAME          that scenario's conversation turn by turn (model, cost, latency, tools)
      --max-chars N            longest text shown per message or tool output (default 600)
  rerun <workflow-id>        a new evaluation linked to this one (TrlRerunOf) that reuses its completed scenario
                             results (same pack, scenario content, spec, seed and agent) and runs the rest
      --scenario NAME          run this scenario again (repeatable)
      --failed                 run again those that ended infra_error or ceiling_reached
      --json                   print the combined evaluation result as JSON
  rescore <workflow-id>      today's verifiers in fresh containers over a run's stored agent outputs (no model
                             call), as a new evaluation linked to it; old and new counts side by side
      --scenario NAME          only this scenario (repeatable; the others are reused as they are)
      --json                   print the new evaluation result as JSON
  report <workflow-id>       one self-contained HTML page of a run (no network needed to view it): tests and cost
                             per scenario, spend by model, which model answered each turn, score vs cost beside the
                             reference examples (cheapest-model, pin-glm-flash, single-model) when their results are here
      --out FILE               where to write it (default: report.html beside the run's result.json)
  export <workflow-id>       each scenario's agent conversation with the model calls behind every turn, one JSON
                             object per scenario per line
      --format F               atif (Agent Trajectory Interchange Format), sharegpt (LLaMA-Factory style, with
                               tools) or jsonl (ours, lossless); required
      --scenario NAME          only this scenario (repeatable)
      --out FILE               write there instead of stdout
  replay <workflow-id>       replay a run's history against the current workflow code: "replays cleanly"
                             or the first non-determinism and its event (exit 0 clean, 1 not, 64 bad input)
      --all                    every closed run of a type instead (the check before deploying workflow code)
      --since DATE             with --all: runs started since DATE
      --type NAME              with --all: the workflow type (default evaluateSubmission)
      --workflows FILE         replay against this workflows entry file instead of workflows/index.ts
      --json                   the outcomes as JSON
  serve                      a pack's policy as the OpenAI model "auto" on 127.0.0.1 (POST /v1/chat/completions,
                             streamed or not, tools; GET /v1/models): each conversation on its own policy
                             instance in its real sandbox behind a metered gateway; upstream TRL_UPSTREAM_*
                             or the sim fleet; cost and answering models in x-trl-cost-usd / x-trl-models
      --pack DIR|FILE|HASH     the pack: a directory, a JSON pack, or a stored pack's sha256
      --seated                 the pack holding the seat (asks the seat workflow through Temporal)
      --port P                 port on 127.0.0.1 (default ${defaultServeSettings.port}; 0 picks a free one)
      --max-instances N        policy instances at once, one per conversation (default ${defaultServeSettings.maxInstances})
      --memory-mb M            memory all instances may hold together (512 MB per TypeScript sandbox,
                               1024 MB per Python / data sidecar): fewer instances when it is smaller
      --idle-sec S             stop an instance idle this long (default ${defaultServeSettings.idleSec})
      --instance-cap-usd X     budget cap of each instance's gateway (default ${defaultServeSettings.instanceCapUsd})
      --request-timeout-sec S  longest a policy may take for one request (default ${defaultServeSettings.requestTimeoutSec})
      --drain-sec S            with --seated: when the seat changes hands, new conversations go to the new
                               policy and open ones finish on the old for up to S seconds (default ${defaultServeSettings.drainSec})
      --seat-poll-sec S        with --seated: how often the seat is asked (default ${defaultSeatPollSec})
      --shadow DIR|FILE|HASH   shadow mode: mirror a sample of live conversations to this pack's policy after
                               each live answer (answers discarded; latency, cost, models recorded in
                               .data/serve/shadow/, a side-by-side table when the server stops)
      --shadow-rate R          share of conversations mirrored, 0..1 (default ${defaultShadowRate})
      --shadow-cap-usd X       what the shadow may spend in all (default ${defaultShadowCapUsd})
  serve keys add LABEL       make an API key (printed once, stored as its sha256); once a key exists every
                             request needs one; --spend-limit-usd X, --requests-per-minute N
  serve keys list|revoke ID  the keys with what each spent (from its call log under .data/serve/calls/)
  test [FILTER...]           bootstrap and run the test suite (files whose path contains FILTER)
      --browser                also the browser checks of the Temporal Web UI (test/browser/, installs chromium)
      --faults                 the fault-injection suite (test/faults/) instead: kills workers, restarts
                               dockerd and a Temporal server, fills a disk (about 30 minutes; docs/how-to/run-the-tests.md)
      --topology               the production topology (test/topology/) instead: Temporal's server on PostgreSQL
                               (built from its Go module once), its Web UI, worker processes per role over S3
`;

/** Every command `trl` runs, with the options its parser accepts (`serve keys` is a command of its own). */
export const commandOptions = {
  up: options({}),
  worker: options({ role: { type: 'string' } }),
  eval: options({
    scenario: { type: 'string', multiple: true, default: [] },
    'scenarios-dir': { type: 'string' },
    agent: { type: 'string', default: defaultAgent },
    seed: { type: 'string', default: '0' },
    id: { type: 'string' },
    tape: { type: 'string' },
    json: { type: 'boolean', default: false },
  }),
  scenarios: options({
    json: { type: 'boolean', default: false },
    collect: { type: 'boolean', default: false },
    'scenarios-dir': { type: 'string' },
  }),
  images: options({ out: { type: 'string' } }),
  'import-tasks': options({ json: { type: 'boolean', default: false } }),
  pack: options({ out: { type: 'string' } }),
  submit: options({ hotkey: { type: 'string' }, url: { type: 'string' }, json: { type: 'boolean', default: false } }),
  seat: options({
    json: { type: 'boolean', default: false },
    report: { type: 'boolean', default: false },
    decision: { type: 'string' },
    out: { type: 'string' },
  }),
  report: options({ out: { type: 'string' } }),
  export: options({
    format: { type: 'string' },
    scenario: { type: 'string', multiple: true, default: [] },
    out: { type: 'string' },
  }),
  consensus: options({ json: { type: 'boolean', default: false } }),
  runs: options({
    status: { type: 'string' },
    hotkey: { type: 'string' },
    pack: { type: 'string' },
    since: { type: 'string' },
    limit: { type: 'string', default: '50' },
    json: { type: 'boolean', default: false },
  }),
  show: options({
    scenario: { type: 'string' },
    'max-chars': { type: 'string', default: '600' },
    json: { type: 'boolean', default: false },
  }),
  rerun: options({
    scenario: { type: 'string', multiple: true, default: [] },
    failed: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  }),
  rescore: options({
    scenario: { type: 'string', multiple: true, default: [] },
    json: { type: 'boolean', default: false },
  }),
  replay: options({
    all: { type: 'boolean', default: false },
    since: { type: 'string' },
    type: { type: 'string', default: 'evaluateSubmission' },
    workflows: { type: 'string' },
    json: { type: 'boolean', default: false },
  }),
  'serve keys': options({
    'spend-limit-usd': { type: 'string' },
    'requests-per-minute': { type: 'string' },
    json: { type: 'boolean', default: false },
  }),
  serve: options({
    pack: { type: 'string' },
    seated: { type: 'boolean', default: false },
    port: { type: 'string' },
    'max-instances': { type: 'string' },
    'memory-mb': { type: 'string' },
    'idle-sec': { type: 'string' },
    'instance-cap-usd': { type: 'string' },
    'request-timeout-sec': { type: 'string' },
    'drain-sec': { type: 'string' },
    'seat-poll-sec': { type: 'string' },
    shadow: { type: 'string' },
    'shadow-rate': { type: 'string' },
    'shadow-cap-usd': { type: 'string' },
  }),
  test: options({
    faults: { type: 'boolean', default: false },
    browser: { type: 'boolean', default: false },
    topology: { type: 'boolean', default: false },
  }),
};

/** The names `trl` answers to without running a command. */
export const helpCommands = ['help', '--help', '-h'] as const;
