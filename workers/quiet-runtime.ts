// Temporal's SDK and its native core log a lot at INFO. Route both through one structured logger on
// stderr (never stdout, which carries `--json` results), at warn unless TRL_LOG_LEVEL asks for more.
// With metrics on, the native core also exports the SDK's runtime metrics (task slots, poll and
// schedule-to-start latencies, workflow and activity outcomes) in Prometheus form on a loopback port.
import { Runtime, type LogLevel, type LogMetadata } from '@temporalio/worker';
import { currentLogLevel, log } from '../common/log.ts';
import { failureTypes } from '../contracts/failure-types.ts';
import type { MetricsConfig } from './worker-config.ts';

let installed = false;
/** Signals on which the SDK shuts this process's workers down; its default (SIGINT, SIGTERM, …) unless set. */
let shutdownSignals: NodeJS.Signals[] | undefined;

/**
 * The process handles SIGINT and SIGTERM itself (`trl eval` cancels its run, which needs its worker
 * alive, then stops the worker): the SDK must not shut workers down on them. Before the first worker.
 */
export function handleSignalsInProcess(): void {
  shutdownSignals = [];
}

const levels: Record<string, 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'debug',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/**
 * Warnings that describe the design working, not a fault: the sandbox role's workers are
 * activity-only (docs/explanation/roles-and-queues.md), and a full host refuses a claim so that the
 * scenario waits on the shared queue — every busy evaluation does that many times a minute.
 */
export function isWarningByDesign(message: string, meta: LogMetadata | undefined): boolean {
  if (message.startsWith('No workflows registered')) return true;
  const error = meta?.error as { type?: unknown } | undefined;
  return message === 'Activity failed' && error?.type === failureTypes.sandboxHostFull;
}

/** Once per process (the SDK's rule): the first call's metrics setting holds. */
export function installQuietRuntime(metrics?: MetricsConfig): void {
  if (installed) return;
  installed = true;
  const level = currentLogLevel().toUpperCase() as LogLevel;
  const emit = (lvl: LogLevel, message: string, meta?: LogMetadata) => {
    const quietened = lvl === 'WARN' && isWarningByDesign(message, meta) ? 'debug' : (levels[lvl] ?? 'info');
    log[quietened]('temporal', { message, ...(meta ?? {}) });
  };
  Runtime.install({
    ...(shutdownSignals ? { shutdownSignals } : {}),
    logger: {
      log: emit,
      trace: (m, meta) => emit('TRACE', m, meta),
      debug: (m, meta) => emit('DEBUG', m, meta),
      info: (m, meta) => emit('INFO', m, meta),
      warn: (m, meta) => emit('WARN', m, meta),
      error: (m, meta) => emit('ERROR', m, meta),
    },
    telemetryOptions: {
      logging: { filter: { core: level, other: level }, forward: {} },
      ...(metrics
        ? {
            metrics: {
              prometheus: {
                bindAddress: `127.0.0.1:${metrics.temporalPort}`,
                countersTotalSuffix: true,
                useSecondsForDurations: true,
              },
            },
          }
        : {}),
    },
  });
}
