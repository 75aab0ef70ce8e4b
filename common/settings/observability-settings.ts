// What a process tells its operator: the Prometheus endpoint, the structured log level, and the
// bootstrap's progress lines (read by workers/worker-config.ts, common/log.ts, workers/quiet-runtime.ts).
import { z } from 'zod';
import { portNumber, settingTable } from './setting.ts';

export const logLevels = ['debug', 'info', 'warn', 'error'] as const;

export const observabilitySettings = settingTable({
  TRL_METRICS_PORT: {
    schema: portNumber('TRL_METRICS_PORT').optional(),
    defaultText: 'unset: no metrics endpoint',
    description:
      "The worker's Prometheus endpoint (`/metrics`): the validator's metrics and Temporal's runtime metrics in one scrape (docs/reference/metrics.md).",
  },
  TRL_METRICS_HOST: {
    schema: z.string().min(1).default('127.0.0.1'),
    description:
      "The address the metrics endpoint binds; loopback by default, since a listener on 0.0.0.0 would be reachable from the sandboxes' networks.",
  },
  TRL_TEMPORAL_METRICS_PORT: {
    schema: portNumber('TRL_TEMPORAL_METRICS_PORT').optional(),
    defaultText: '`TRL_METRICS_PORT` + 1',
    description: "Where the Temporal SDK's core exports its runtime metrics (always on 127.0.0.1).",
  },
  TRL_LOG_LEVEL: {
    schema: z
      .enum(logLevels, { error: 'TRL_LOG_LEVEL must be debug, info, warn or error' })
      .optional()
      .transform((level) => level ?? 'warn'),
    defaultText: '`warn`',
    description:
      'Structured JSON logs on stderr from this level up: `debug`, `info`, `warn` or `error` (an unknown level logs as `warn`).',
  },
  TRL_QUIET: {
    schema: z
      .string()
      .optional()
      .transform((value) => value === '1'),
    description: '`1` silences the bootstrap\'s "doing X" lines.',
  },
});
