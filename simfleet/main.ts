// Runs the sim fleet as its own process:
// node --import tsx simfleet/main.ts [--port N] [--time-scale X] [--mode fast|realistic] [--scenarios-dir DIR]
// [--exit-with-stdin]
// Prints one line when ready and closes cleanly on SIGTERM / SIGINT, or (--exit-with-stdin) when its
// stdin ends: a worker that started it and was SIGKILLed closes that pipe, and no fleet outlives it.
import { parseArgs } from 'node:util';
import { startSimFleet } from './sim-fleet-server.ts';
import { fleetModes, type FleetMode } from './simulate-completion.ts';
import { readSetting } from '../common/settings/setting.ts';
import { moneySettings } from '../common/settings/money-settings.ts';

const usage =
  'usage: node --import tsx simfleet/main.ts [--port N] [--time-scale X] [--mode fast|realistic] [--scenarios-dir DIR] [--exit-with-stdin]';

function fail(message: string): never {
  process.stderr.write(`trl-sim-fleet: ${message}\n${usage}\n`);
  process.exit(64);
}

function parseOptions(argv: string[]): {
  port: number;
  timeScale: number;
  mode: FleetMode;
  scenariosDir?: string;
  exitWithStdin: boolean;
} {
  let values: {
    port?: string;
    'time-scale'?: string;
    mode?: string;
    'scenarios-dir'?: string;
    'exit-with-stdin'?: boolean;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        'time-scale': { type: 'string' },
        mode: { type: 'string' },
        'scenarios-dir': { type: 'string' },
        'exit-with-stdin': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  const port = Number(values.port ?? '0');
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`--port must be an integer from 0 to 65535, not ${values.port}`);
  const fromEnvironment = <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      return fail((error as Error).message);
    }
  };
  const timeScale =
    values['time-scale'] !== undefined
      ? Number(values['time-scale'])
      : (fromEnvironment(() => readSetting(moneySettings, 'TRL_SIM_FLEET_TIME_SCALE')) ?? 1);
  if (!Number.isFinite(timeScale) || timeScale < 0)
    fail(`--time-scale must be a non-negative number, not ${values['time-scale']}`);
  // The flags win; else TRL_SIM_FLEET_MODE / TRL_SIM_FLEET_TIME_SCALE; else realistic at time scale 1 (standalone, the
  // models' real pace; a worker passes both flags: workers/model-upstream.ts).
  const mode = values.mode ?? fromEnvironment(() => readSetting(moneySettings, 'TRL_SIM_FLEET_MODE'));
  if (!fleetModes.includes(mode as FleetMode)) fail(`--mode must be one of ${fleetModes.join(', ')}, not ${mode}`);
  return {
    port,
    timeScale,
    mode: mode as FleetMode,
    exitWithStdin: values['exit-with-stdin'] === true,
    ...(values['scenarios-dir'] === undefined ? {} : { scenariosDir: values['scenarios-dir'] }),
  };
}

const options = parseOptions(process.argv.slice(2));
let fleet: Awaited<ReturnType<typeof startSimFleet>>;
try {
  fleet = await startSimFleet(options);
} catch (error) {
  process.stderr.write(`trl-sim-fleet: cannot start: ${(error as Error).message}\n`);
  process.exit(1);
}
process.stdout.write(`trl-sim-fleet listening on ${fleet.url} (simulated models, not real LLMs)\n`);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await fleet.close();
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
if (options.exitWithStdin) {
  process.stdin.on('end', () => void stop());
  process.stdin.on('close', () => void stop());
  process.stdin.resume();
}
