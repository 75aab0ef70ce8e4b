// `trl`: one command for validators, operators, engineers and miners. Each command's module is
// loaded when that command runs: loading them all cost every `trl` about 3 s of CPU before it did anything.
import { parseArgs } from 'node:util';
import { UsageError } from './usage-error.ts';
import { ConfigError } from '../common/config-error.ts';
import { ChainError } from '../chain/chain-error.ts';
import { ScenarioError } from '../catalog/scenario-error.ts';
import { PackError } from '../packs/pack-error.ts';
import { defaultServeSettings } from '../workers/serve-settings.ts';
import { defaultSeatPollSec, defaultShadowCapUsd, defaultShadowRate } from './commands/serve-defaults.ts';
import { commandOptions, usage } from './command-table.ts';

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'eval': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: commandOptions.eval,
      });
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
      });
    }
    case 'up':
      return (await import('./commands/up-command.ts')).upCommand();
    case 'worker': {
      const { values } = parseArgs({ args: rest, options: commandOptions.worker });
      const worker = await import('./commands/worker-command.ts');
      return worker.workerCommand({ role: worker.parseWorkerRole(values.role) });
    }
    case 'scenarios': {
      const { values } = parseArgs({
        args: rest,
        options: commandOptions.scenarios,
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
        options: commandOptions.images,
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
        options: commandOptions['import-tasks'],
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
        options: commandOptions.pack,
      });
      if (positionals.length !== 1) throw new UsageError('trl pack needs exactly one pack directory');
      return (await import('./commands/pack-command.ts')).packCommand({ dir: positionals[0]!, out: values.out });
    }
    case 'submit': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: commandOptions.submit,
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
        options: commandOptions.seat,
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
        options: commandOptions.report,
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
        options: commandOptions.export,
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
      const { values } = parseArgs({ args: rest, options: commandOptions.consensus });
      return (await import('./commands/consensus-command.ts')).consensusCommand({ json: values.json! });
    }
    case 'runs': {
      const { values } = parseArgs({
        args: rest,
        options: commandOptions.runs,
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
        options: commandOptions.show,
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
        options: commandOptions.rerun,
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
        options: commandOptions.rescore,
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
        options: commandOptions.replay,
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
          options: commandOptions['serve keys'],
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
        options: commandOptions.serve,
      });
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
        options: commandOptions.test,
      });
      return (await import('./commands/test-command.ts')).testCommand({
        filter: positionals,
        faults: values.faults!,
        browser: values.browser!,
        topology: values.topology!,
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
      (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
    ) {
      process.stderr.write(`trl: ${(error as Error).message}\n`);
      process.exit(64);
    }
    process.stderr.write(`trl: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
