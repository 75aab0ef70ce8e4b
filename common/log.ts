// Structured logs, one JSON object per line on stderr; quiet by default (warn and up).
// TRL_LOG_LEVEL=debug|info|warn|error changes that. A line written inside an activity carries its
// workflow, run and activity ids, so a log line leads to the run in the Temporal UI, and the fields
// of the enclosing withLogFields (a scenario activity's scenario name).
import { AsyncLocalStorage } from 'node:async_hooks';
import { Context } from '@temporalio/activity';
import { readSetting } from './settings/setting.ts';
import { observabilitySettings } from './settings/observability-settings.ts';

type Level = 'debug' | 'info' | 'warn' | 'error';
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** TRL_LOG_LEVEL, read at each line (a command may set it after start); an unknown level logs as `warn`, since a
 * logger must never throw. */
export function currentLogLevel(): Level {
  const parsed = observabilitySettings.TRL_LOG_LEVEL.schema.safeParse(process.env.TRL_LOG_LEVEL);
  return parsed.success ? parsed.data : 'warn';
}

function threshold(): number {
  return order[currentLogLevel()];
}

/** The running activity's ids, or nothing outside an activity (Context.current throws there). */
function activityFields(): Record<string, unknown> {
  let context: Context;
  try {
    context = Context.current();
  } catch {
    return {};
  }
  const { info } = context;
  return {
    workflowId: info.workflowExecution?.workflowId,
    runId: info.workflowExecution?.runId,
    activityType: info.activityType,
    activityId: info.activityId,
    attempt: info.attempt,
  };
}

const scopedFields = new AsyncLocalStorage<Record<string, unknown>>();

/** Runs `work` with `fields` on every log line written inside it (awaited callbacks included). */
export function withLogFields<T>(fields: Record<string, unknown>, work: () => T): T {
  return scopedFields.run({ ...scopedFields.getStore(), ...fields }, work);
}

function emit(level: Level, event: string, fields: Record<string, unknown>): void {
  if (order[level] < threshold()) return;
  process.stderr.write(
    JSON.stringify({
      time: new Date().toISOString(),
      level,
      event,
      ...activityFields(),
      ...scopedFields.getStore(),
      ...fields,
    }) + '\n',
  );
}

export const log = {
  debug: (event: string, fields: Record<string, unknown> = {}) => emit('debug', event, fields),
  info: (event: string, fields: Record<string, unknown> = {}) => emit('info', event, fields),
  warn: (event: string, fields: Record<string, unknown> = {}) => emit('warn', event, fields),
  error: (event: string, fields: Record<string, unknown> = {}) => emit('error', event, fields),
};

/** Human-facing progress lines from bootstrap steps: printed only when something is done. */
export function say(message: string): void {
  if (readSetting(observabilitySettings, 'TRL_QUIET')) return;
  process.stderr.write(`trl: ${message}\n`);
}
