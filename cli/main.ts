// `trl`: one command for validators, operators, engineers and miners. Each command's module is
// loaded when that command runs: loading them all cost every `trl` about 3 s of CPU before it did anything.
import { UsageError } from './usage-error.ts';
import { applyUpstreamOption } from './upstream-option.ts';
import { LocalModelError } from '../infra/local-model/local-model-error.ts';
import { ConfigError } from '../common/config-error.ts';
import { ChainError } from '../chain/chain-error.ts';
import { ScenarioError } from '../catalog/scenario-error.ts';
import { PackError } from '../packs/pack-error.ts';
import { renderHelp } from './render-help.ts';
import { parseCommand, type ParsedCommand } from './parse-command.ts';
import { helpCommands } from './command-table.ts';
import { defaultServeSettings } from '../workers/serve-settings.ts';
import { defaultSeatPollSec, defaultShadowCapUsd, defaultShadowRate } from './commands/serve-defaults.ts';

const usage = renderHelp();

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || (helpCommands as readonly string[]).includes(command)) {
    process.stdout.write(usage);
    return command === undefined ? 64 : 0;
  }
  switch (command) {
    case 'eval': {
      const flags = parseCommand('eval', rest);
      applyUpstreamOption(flags.text('upstream'));
      if (flags.positionals.length !== 1)
        throw new UsageError('trl eval needs exactly one pack directory, e.g. trl eval policy/examples/single-model');
      const seed = Number(flags.text('seed'));
      if (!Number.isInteger(seed) || seed < 0)
        throw new UsageError(`--seed must be a non-negative integer; got "${flags.text('seed')}"`);
      return (await import('./commands/eval-command.ts')).evalCommand({
        pack: flags.positionals[0]!,
        scenarios: flags.list('scenario'),
        scenariosDir: flags.text('scenarios-dir'),
        agent: flags.text('agent')!,
        seed,
        json: flags.on('json'),
        id: flags.text('id'),
        tape: flags.text('tape'),
        upstream: flags.text('upstream'),
      });
    }
    case 'up': {
      const flags = parseCommand('up', rest, { positionals: false });
      applyUpstreamOption(flags.text('upstream'));
      return (await import('./commands/up-command.ts')).upCommand();
    }
    case 'worker': {
      const flags = parseCommand('worker', rest, { positionals: false });
      const worker = await import('./commands/worker-command.ts');
      return worker.workerCommand({ role: worker.parseWorkerRole(flags.text('role')) });
    }
    case 'scenarios': {
      const flags = parseCommand('scenarios', rest, { positionals: false });
      return (await import('./commands/scenarios-command.ts')).scenariosCommand({
        json: flags.on('json'),
        collect: flags.on('collect'),
        scenariosDir: flags.text('scenarios-dir'),
      });
    }
    case 'images': {
      const flags = parseCommand('images', rest);
      const images = await import('./commands/images-command.ts');
      return images.imagesCommand({
        action: images.parseImagesAction(flags.positionals[0]),
        file: flags.positionals[1],
        out: flags.text('out'),
      });
    }
    case 'import-tasks': {
      const flags = parseCommand('import-tasks', rest);
      if (flags.positionals.length !== 2)
        throw new UsageError(
          'trl import-tasks needs SRC (Terminal-Bench 1 or Harbor tasks) and DEST (where the Harbor-layout tasks go)',
        );
      return (await import('./commands/import-tasks-command.ts')).importTasksCommand({
        src: flags.positionals[0]!,
        dest: flags.positionals[1]!,
        json: flags.on('json'),
      });
    }
    case 'pack': {
      const flags = parseCommand('pack', rest);
      if (flags.positionals.length !== 1) throw new UsageError('trl pack needs exactly one pack directory');
      return (await import('./commands/pack-command.ts')).packCommand({
        dir: flags.positionals[0]!,
        out: flags.text('out'),
      });
    }
    case 'submit': {
      const flags = parseCommand('submit', rest);
      if (flags.positionals.length !== 1)
        throw new UsageError(
          'trl submit needs exactly one pack directory, e.g. trl submit policy/examples/cost-cascade',
        );
      return (await import('./commands/submit-command.ts')).submitCommand({
        pack: flags.positionals[0]!,
        hotkey: flags.text('hotkey'),
        url: flags.text('url'),
        json: flags.on('json'),
      });
    }
    case 'seat': {
      const flags = parseCommand('seat', rest, { positionals: false });
      if (!flags.on('report') && (flags.text('decision') !== undefined || flags.text('out') !== undefined))
        throw new UsageError('--decision and --out go with --report');
      const decision = flags.text('decision') === undefined ? undefined : Number(flags.text('decision'));
      if (decision !== undefined && (!Number.isInteger(decision) || decision < 1))
        throw new UsageError(`--decision must be a positive integer; got "${flags.text('decision')}"`);
      if (flags.on('report'))
        return (await import('./commands/seat-report-command.ts')).seatReportCommand({
          decision,
          out: flags.text('out'),
        });
      return (await import('./commands/seat-command.ts')).seatCommand({ json: flags.on('json') });
    }
    case 'report': {
      const flags = parseCommand('report', rest);
      if (flags.positionals.length !== 1)
        throw new UsageError(
          'trl report needs exactly one workflow id, e.g. trl report evaluate-local-20261201T101500-abc123',
        );
      return (await import('./commands/report-command.ts')).reportCommand({
        workflowId: flags.positionals[0]!,
        out: flags.text('out'),
      });
    }
    case 'export': {
      const flags = parseCommand('export', rest);
      if (flags.positionals.length !== 1)
        throw new UsageError(
          'trl export needs exactly one workflow id, e.g. trl export evaluate-local-20261201T101500-abc123 --format atif',
        );
      const format = flags.text('format');
      if (!format) throw new UsageError('trl export needs --format atif, sharegpt or jsonl');
      return (await import('./commands/export-command.ts')).exportCommand({
        workflowId: flags.positionals[0]!,
        format,
        scenarios: flags.list('scenario'),
        out: flags.text('out'),
      });
    }
    case 'consensus': {
      const flags = parseCommand('consensus', rest, { positionals: false });
      return (await import('./commands/consensus-command.ts')).consensusCommand({ json: flags.on('json') });
    }
    case 'runs': {
      const flags = parseCommand('runs', rest, { positionals: false });
      const limit = Number(flags.text('limit'));
      if (!Number.isInteger(limit) || limit < 1)
        throw new UsageError(`--limit must be a positive integer; got "${flags.text('limit')}"`);
      return (await import('./commands/runs-command.ts')).runsCommand({
        status: flags.text('status'),
        hotkey: flags.text('hotkey'),
        pack: flags.text('pack'),
        since: flags.text('since'),
        limit,
        json: flags.on('json'),
      });
    }
    case 'show': {
      const flags = parseCommand('show', rest);
      if (flags.positionals.length !== 1)
        throw new UsageError(
          'trl show needs exactly one workflow id, e.g. trl show evaluate-local-20261201T101500-abc123',
        );
      const maxChars = Number(flags.text('max-chars'));
      if (!Number.isInteger(maxChars) || maxChars < 40)
        throw new UsageError(`--max-chars must be an integer of at least 40; got "${flags.text('max-chars')}"`);
      return (await import('./commands/show-command.ts')).showCommand({
        workflowId: flags.positionals[0]!,
        scenario: flags.text('scenario'),
        maxChars,
        json: flags.on('json'),
      });
    }
    case 'rerun': {
      const flags = parseCommand('rerun', rest);
      if (flags.positionals.length !== 1)
        throw new UsageError(
          'trl rerun needs exactly one workflow id, e.g. trl rerun evaluate-local-20261201T101500-abc123 --failed',
        );
      return (await import('./commands/rerun-command.ts')).rerunCommand({
        workflowId: flags.positionals[0]!,
        scenarios: flags.list('scenario'),
        failed: flags.on('failed'),
        json: flags.on('json'),
      });
    }
    case 'rescore': {
      const flags = parseCommand('rescore', rest);
      if (flags.positionals.length !== 1)
        throw new UsageError(
          'trl rescore needs exactly one workflow id, e.g. trl rescore evaluate-local-20261201T101500-abc123',
        );
      return (await import('./commands/rescore-command.ts')).rescoreCommand({
        workflowId: flags.positionals[0]!,
        scenarios: flags.list('scenario'),
        json: flags.on('json'),
      });
    }
    case 'replay': {
      const flags = parseCommand('replay', rest);
      if (flags.positionals.length > 1) throw new UsageError('trl replay takes one workflow id (or --all)');
      return (await import('./commands/replay-command.ts')).replayCommand({
        workflowId: flags.positionals[0],
        all: flags.on('all'),
        since: flags.text('since'),
        type: flags.text('type')!,
        workflows: flags.text('workflows'),
        json: flags.on('json'),
      });
    }
    case 'serve': {
      if (rest[0] === 'keys') {
        const flags = parseCommand('serve keys', rest.slice(1));
        const spendLimitUsd = positiveNumberFlag(flags, 'spend-limit-usd');
        const requestsPerMinute = positiveIntegerFlag(flags, 'requests-per-minute');
        return (await import('./commands/serve-command.ts')).serveKeysCommand({
          action: flags.positionals[0],
          arg: flags.positionals[1],
          spendLimitUsd,
          requestsPerMinute,
          json: flags.on('json'),
        });
      }
      const flags = parseCommand('serve', rest);
      applyUpstreamOption(flags.text('upstream'));
      if (flags.positionals.length)
        throw new UsageError(
          `trl serve takes no positional arguments (got "${flags.positionals[0]}"); use --pack DIR|FILE|HASH or --seated`,
        );
      const d = defaultServeSettings;
      const memoryMb = positiveNumberFlag(flags, 'memory-mb');
      const shadowPack = flags.text('shadow');
      const port = flags.text('port') === undefined ? d.port : Number(flags.text('port'));
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new UsageError(`--port must be a port number; got "${flags.text('port')}"`);
      const shadowRate =
        flags.text('shadow-rate') === undefined ? defaultShadowRate : Number(flags.text('shadow-rate'));
      if (!(shadowRate >= 0 && shadowRate <= 1))
        throw new UsageError(`--shadow-rate must be a share between 0 and 1; got "${flags.text('shadow-rate')}"`);
      return (await import('./commands/serve-command.ts')).serveCommand({
        pack: flags.text('pack'),
        seated: flags.on('seated'),
        seatPollSec: positiveNumberFlag(flags, 'seat-poll-sec') ?? defaultSeatPollSec,
        ...(shadowPack === undefined
          ? {}
          : {
              shadow: {
                pack: shadowPack,
                sampleRate: shadowRate,
                capUsd: positiveNumberFlag(flags, 'shadow-cap-usd') ?? defaultShadowCapUsd,
              },
            }),
        settings: {
          host: d.host,
          port,
          maxInstances: positiveIntegerFlag(flags, 'max-instances') ?? d.maxInstances,
          idleSec: positiveNumberFlag(flags, 'idle-sec') ?? d.idleSec,
          instanceCapUsd: positiveNumberFlag(flags, 'instance-cap-usd') ?? d.instanceCapUsd,
          ...(memoryMb === undefined ? {} : { memoryMb }),
          requestTimeoutSec: positiveNumberFlag(flags, 'request-timeout-sec') ?? d.requestTimeoutSec,
          drainSec: positiveNumberFlag(flags, 'drain-sec') ?? d.drainSec,
        },
      });
    }
    case 'test': {
      const flags = parseCommand('test', rest);
      return (await import('./commands/test-command.ts')).testCommand({
        filter: flags.positionals,
        faults: flags.on('faults'),
        browser: flags.on('browser'),
        topology: flags.on('topology'),
        realModel: flags.on('real-model'),
      });
    }
    case 'docs': {
      const flags = parseCommand('docs', rest, { positionals: false });
      return (await import('./commands/docs-command.ts')).docsCommand({ check: flags.on('check') });
    }
    default:
      throw new UsageError(`unknown command "${command}"\n\n${usage}`);
  }
}

/** A flag's value as a positive number, or undefined when the flag is absent. */
function positiveNumberFlag(flags: ParsedCommand, name: string): number | undefined {
  const text = flags.text(name);
  return text === undefined ? undefined : positiveNumber(`--${name}`, text);
}

function positiveIntegerFlag(flags: ParsedCommand, name: string): number | undefined {
  const text = flags.text(name);
  return text === undefined ? undefined : positiveInteger(`--${name}`, text);
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
