// `trl`: one command for validators, operators, engineers and miners.
import { parseArgs } from 'node:util';
import { evalCommand } from './commands/eval-command.ts';
import { upCommand } from './commands/up-command.ts';
import { scenariosCommand } from './commands/scenarios-command.ts';
import { packCommand } from './commands/pack-command.ts';
import { testCommand } from './commands/test-command.ts';
import { submitCommand } from './commands/submit-command.ts';
import { seatCommand } from './commands/seat-command.ts';
import { consensusCommand } from './commands/consensus-command.ts';
import { replayCommand } from './commands/replay-command.ts';
import { runsCommand } from './commands/runs-command.ts';
import { showCommand } from './commands/show-command.ts';
import { rerunCommand } from './commands/rerun-command.ts';
import { rescoreCommand } from './commands/rescore-command.ts';
import { UsageError } from './usage-error.ts';
import { ConfigError } from '../common/config-error.ts';
import { ChainError } from '../chain/chain-error.ts';
import { ScenarioError } from '../catalog/scenario-error.ts';
import { PackError } from '../packs/pack-error.ts';
import { defaultAgent } from '../contracts/agent-kinds.ts';

const usage = `usage: trl <command> [options]

  up                         start the embedded stack (Temporal dev server + Web UI, worker, sim fleet,
                             local chain, the seat's cycle Schedule) and keep it running
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
  scenarios [--json]         list the active scenarios with category, difficulty and test count
  pack <dir> [--out FILE]    print a pack's hash; --out writes its canonical JSON
  submit <pack>              commit a pack: on the local chain (default) store it and commit it for a
                             miner hotkey; on Subtensor print the commitment to make
      --hotkey URI             local chain: the miner's dev key (default //TrlMiner), registered if new
      --url URL                where validators download the pack (required on Subtensor)
  seat [--json]              the seat: incumbent, challenge in progress, queue, recent decisions
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
  replay <workflow-id>       replay a run's history against the current workflow code: "replays cleanly"
                             or the first non-determinism and its event (exit 0 clean, 1 not, 64 bad input)
      --all                    every closed run of a type instead (the check before deploying workflow code)
      --since DATE             with --all: runs started since DATE
      --type NAME              with --all: the workflow type (default evaluateSubmission)
      --workflows FILE         replay against this workflows entry file instead of workflows/index.ts
      --json                   the outcomes as JSON
  test [FILTER...]           bootstrap and run the test suite (files whose path contains FILTER)
      --faults                 the fault-injection suite (test/faults/) instead: kills workers, restarts
                               dockerd and a Temporal server, fills a disk (about 30 minutes; README "Faults")
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
          json: { type: 'boolean', default: false },
        },
      });
      if (positionals.length !== 1) throw new UsageError('trl eval needs exactly one pack directory, e.g. trl eval policy/examples/single-model');
      const seed = Number(values.seed);
      if (!Number.isInteger(seed) || seed < 0) throw new UsageError(`--seed must be a non-negative integer; got "${values.seed}"`);
      return evalCommand({ pack: positionals[0]!, scenarios: values.scenario ?? [], scenariosDir: values['scenarios-dir'], agent: values.agent!, seed, json: values.json!, id: values.id, tape: values.tape });
    }
    case 'up':
      return upCommand();
    case 'scenarios': {
      const { values } = parseArgs({ args: rest, options: { json: { type: 'boolean', default: false }, 'scenarios-dir': { type: 'string' } } });
      return scenariosCommand({ json: values.json!, scenariosDir: values['scenarios-dir'] });
    }
    case 'pack': {
      const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { out: { type: 'string' } } });
      if (positionals.length !== 1) throw new UsageError('trl pack needs exactly one pack directory');
      return packCommand({ dir: positionals[0]!, out: values.out });
    }
    case 'submit': {
      const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { hotkey: { type: 'string' }, url: { type: 'string' }, json: { type: 'boolean', default: false } } });
      if (positionals.length !== 1) throw new UsageError('trl submit needs exactly one pack directory, e.g. trl submit policy/examples/cost-cascade');
      return submitCommand({ pack: positionals[0]!, hotkey: values.hotkey, url: values.url, json: values.json! });
    }
    case 'seat': {
      const { values } = parseArgs({ args: rest, options: { json: { type: 'boolean', default: false } } });
      return seatCommand({ json: values.json! });
    }
    case 'consensus': {
      const { values } = parseArgs({ args: rest, options: { json: { type: 'boolean', default: false } } });
      return consensusCommand({ json: values.json! });
    }
    case 'runs': {
      const { values } = parseArgs({
        args: rest,
        options: { status: { type: 'string' }, hotkey: { type: 'string' }, pack: { type: 'string' }, since: { type: 'string' }, limit: { type: 'string', default: '50' }, json: { type: 'boolean', default: false } },
      });
      const limit = Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit must be a positive integer; got "${values.limit}"`);
      return runsCommand({ status: values.status, hotkey: values.hotkey, pack: values.pack, since: values.since, limit, json: values.json! });
    }
    case 'show': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { scenario: { type: 'string' }, 'max-chars': { type: 'string', default: '600' }, json: { type: 'boolean', default: false } },
      });
      if (positionals.length !== 1) throw new UsageError('trl show needs exactly one workflow id, e.g. trl show evaluate-local-20261201T101500-abc123');
      const maxChars = Number(values['max-chars']);
      if (!Number.isInteger(maxChars) || maxChars < 40) throw new UsageError(`--max-chars must be an integer of at least 40; got "${values['max-chars']}"`);
      return showCommand({ workflowId: positionals[0]!, scenario: values.scenario, maxChars, json: values.json! });
    }
    case 'rerun': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { scenario: { type: 'string', multiple: true, default: [] }, failed: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } },
      });
      if (positionals.length !== 1) throw new UsageError('trl rerun needs exactly one workflow id, e.g. trl rerun evaluate-local-20261201T101500-abc123 --failed');
      return rerunCommand({ workflowId: positionals[0]!, scenarios: values.scenario ?? [], failed: values.failed!, json: values.json! });
    }
    case 'rescore': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { scenario: { type: 'string', multiple: true, default: [] }, json: { type: 'boolean', default: false } },
      });
      if (positionals.length !== 1) throw new UsageError('trl rescore needs exactly one workflow id, e.g. trl rescore evaluate-local-20261201T101500-abc123');
      return rescoreCommand({ workflowId: positionals[0]!, scenarios: values.scenario ?? [], json: values.json! });
    }
    case 'replay': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { all: { type: 'boolean', default: false }, since: { type: 'string' }, type: { type: 'string', default: 'evaluateSubmission' }, workflows: { type: 'string' }, json: { type: 'boolean', default: false } },
      });
      if (positionals.length > 1) throw new UsageError('trl replay takes one workflow id (or --all)');
      return replayCommand({ workflowId: positionals[0], all: values.all!, since: values.since, type: values.type!, workflows: values.workflows, json: values.json! });
    }
    case 'test': {
      const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { faults: { type: 'boolean', default: false } } });
      return testCommand({ filter: positionals, faults: values.faults! });
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

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof ConfigError || error instanceof ChainError || (error as Error).name === 'HotkeyError' || error instanceof ScenarioError || error instanceof PackError || (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      process.stderr.write(`trl: ${(error as Error).message}\n`);
      process.exit(64);
    }
    process.stderr.write(`trl: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exit(1);
  },
);
