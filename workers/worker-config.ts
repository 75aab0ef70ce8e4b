// The worker's configuration from its environment, checked with zod; each bad value names the
// variable and what it expects. The variables are declared in common/settings/; this module checks
// how they go together.
import { z } from 'zod';
import os from 'node:os';
import { ConfigError } from '../common/config-error.ts';
import { settingsShape } from '../common/settings/setting.ts';
import { moneySettings } from '../common/settings/money-settings.ts';
import { observabilitySettings } from '../common/settings/observability-settings.ts';
import { workerSettings } from '../common/settings/worker-settings.ts';

const configSchema = z
  .object({
    ...settingsShape(moneySettings, [
      'TRL_UPSTREAM_BASE_URL',
      'TRL_UPSTREAM_API_KEY',
      'TRL_UPSTREAM',
      'TRL_UPSTREAM_TIMEOUT_SEC',
      'TRL_BUDGET_CAP_USD',
      'TRL_SIM_TIME_SCALE',
      'TRL_SIM_FLEET_TIME_SCALE',
      'TRL_SIM_FLEET_MODE',
      'TRL_SIM_SCENARIOS_DIR',
      'TRL_SUBMISSION_CEILING_USD',
      'TRL_DAILY_CEILING_USD',
      'TRL_SPEND_LEDGER',
    ]),
    ...settingsShape(workerSettings, ['TRL_POLICY_REQUEST_TIMEOUT_SEC', 'TRL_WORKER_HOST_ID']),
    ...settingsShape(observabilitySettings, ['TRL_METRICS_PORT', 'TRL_METRICS_HOST', 'TRL_TEMPORAL_METRICS_PORT']),
  })
  .refine((c) => !c.TRL_UPSTREAM_BASE_URL || c.TRL_UPSTREAM_API_KEY, {
    message: 'TRL_UPSTREAM_API_KEY is required with TRL_UPSTREAM_BASE_URL',
    path: ['TRL_UPSTREAM_API_KEY'],
  })
  .refine((c) => !(c.TRL_UPSTREAM && c.TRL_UPSTREAM_BASE_URL), {
    message: 'TRL_UPSTREAM (sim-fleet or local-model) and TRL_UPSTREAM_BASE_URL (a provider) exclude each other',
    path: ['TRL_UPSTREAM'],
  })
  // A ceiling below the scenario cap could never admit a single attempt.
  .refine((c) => c.TRL_SUBMISSION_CEILING_USD >= c.TRL_BUDGET_CAP_USD, {
    message: 'TRL_SUBMISSION_CEILING_USD must be at least TRL_BUDGET_CAP_USD (the scenario cap)',
    path: ['TRL_SUBMISSION_CEILING_USD'],
  })
  .refine((c) => c.TRL_DAILY_CEILING_USD >= c.TRL_BUDGET_CAP_USD, {
    message: 'TRL_DAILY_CEILING_USD must be at least TRL_BUDGET_CAP_USD (the scenario cap)',
    path: ['TRL_DAILY_CEILING_USD'],
  });

export type WorkerConfig = z.infer<typeof configSchema>;

export function readWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
  }
  return parsed.data;
}

export interface MetricsConfig {
  host: string;
  port: number;
  /** Temporal's runtime exporter, on loopback; its lines are appended to every scrape of `port`. */
  temporalPort: number;
}

/** The metrics endpoints, or undefined when TRL_METRICS_PORT is unset (the default, and in tests). */
export function metricsConfigOf(config: WorkerConfig): MetricsConfig | undefined {
  if (config.TRL_METRICS_PORT === undefined) return undefined;
  const temporalPort = config.TRL_TEMPORAL_METRICS_PORT ?? config.TRL_METRICS_PORT + 1;
  if (temporalPort === config.TRL_METRICS_PORT)
    throw new ConfigError('TRL_TEMPORAL_METRICS_PORT must differ from TRL_METRICS_PORT');
  return { host: config.TRL_METRICS_HOST, port: config.TRL_METRICS_PORT, temporalPort };
}

/** The sandbox host id: TRL_WORKER_HOST_ID, else this host's name and process id. */
export function sandboxHostIdOf(config: WorkerConfig): string {
  if (config.TRL_WORKER_HOST_ID) return config.TRL_WORKER_HOST_ID;
  const host =
    os
      .hostname()
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 80) || 'host';
  return `${host}-${process.pid}`;
}

/**
 * The sim fleet's pace: TRL_SIM_FLEET_TIME_SCALE, else TRL_SIM_TIME_SCALE (the older name), else by mode: 0 for the
 * realistic fleet (its 15–40-turn trajectories at the models' real latency would add minutes per scenario to every
 * `trl eval`; bench/realistic-fleet.ts measures both), 0.1 for the fast one (a little pacing, as before).
 */
export function simFleetTimeScaleOf(config: WorkerConfig): number {
  return (
    config.TRL_SIM_FLEET_TIME_SCALE ?? config.TRL_SIM_TIME_SCALE ?? (config.TRL_SIM_FLEET_MODE === 'fast' ? 0.1 : 0)
  );
}
