// Temporal's core SDK logs at INFO by default; keep the worker quiet unless TRL_LOG_LEVEL asks.
import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';

let installed = false;

export function installQuietRuntime(): void {
  if (installed) return;
  installed = true;
  const level = (process.env.TRL_LOG_LEVEL ?? 'warn').toUpperCase() as LogLevel;
  Runtime.install({ logger: new DefaultLogger(level) });
}
