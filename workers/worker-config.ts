// The worker's configuration from its environment, checked with zod; each bad value names the
// variable and what it expects.
import { z } from 'zod';
import os from 'node:os';
import { ConfigError } from '../common/config-error.ts';
import { sandboxHostIdPattern } from '../contracts/temporal-names.ts';

const port = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a TCP port number` })
    .int(`${name} must be a TCP port number`)
    .min(1, `${name} must be a TCP port number`)
    .max(65535, `${name} must be a TCP port number`);

const configSchema = z
  .object({
    TRL_UPSTREAM_BASE_URL: z
      .string()
      .url('TRL_UPSTREAM_BASE_URL must be an http(s) URL such as https://…/v1')
      .optional(),
    TRL_UPSTREAM_API_KEY: z.string().min(1).optional(),
    TRL_UPSTREAM_TIMEOUT_SEC: z.coerce.number().positive().default(120),
    TRL_BUDGET_CAP_USD: z.coerce
      .number()
      .positive('TRL_BUDGET_CAP_USD must be a positive number of USD')
      .max(100)
      .default(1),
    TRL_POLICY_REQUEST_TIMEOUT_SEC: z.coerce.number().positive().max(3600).default(300),
    TRL_SIM_TIME_SCALE: z.coerce.number().nonnegative().default(0.1),
    /** The sim fleet's pace; wins over TRL_SIM_TIME_SCALE when set (simfleet/README.md). */
    TRL_SIM_FLEET_TIME_SCALE: z.coerce.number().nonnegative().optional(),
    /** `fast` (one attempt, 2–4 turns) or `realistic` (long trajectories, prompt-sensitive outcomes). */
    TRL_SIM_FLEET_MODE: z
      .enum(['fast', 'realistic'], { error: 'TRL_SIM_FLEET_MODE must be "fast" or "realistic"' })
      .default('fast'),
    TRL_SIM_SCENARIOS_DIR: z.string().optional(),
    /** Spend ceilings of the ledger across attempts (gateway/spend/): per submission, all days; per UTC day. */
    TRL_SUBMISSION_CEILING_USD: z.coerce
      .number()
      .positive('TRL_SUBMISSION_CEILING_USD must be a positive number of USD')
      .default(30),
    TRL_DAILY_CEILING_USD: z.coerce
      .number()
      .positive('TRL_DAILY_CEILING_USD must be a positive number of USD')
      .default(500),
    /** The Prometheus endpoint (workers/metrics-server.ts): off unless a port is given. */
    TRL_METRICS_PORT: port('TRL_METRICS_PORT').optional(),
    /** Loopback by default: a listener on 0.0.0.0 would be reachable from the sandboxes' networks. */
    TRL_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    /** Where Temporal's SDK runtime exports its own metrics (always loopback); default TRL_METRICS_PORT + 1. */
    TRL_TEMPORAL_METRICS_PORT: port('TRL_TEMPORAL_METRICS_PORT').optional(),
    /**
     * The sandbox host's id, which names its own task queue. Default hostname-pid: a restarted process
     * gets a new queue (the old one's tasks time out and their scenarios start over elsewhere).
     */
    /**
     * Where the money ledger is kept: `file` (this host's data directory) or `workflow` (one shared
     * ledger workflow, for sandbox workers on several hosts). Default: `file` for one process with both
     * roles, `workflow` for `trl worker --role …`.
     */
    TRL_SPEND_LEDGER: z
      .enum(['file', 'workflow'], {
        error: 'TRL_SPEND_LEDGER must be "file" (this host) or "workflow" (shared by workers on several hosts)',
      })
      .optional(),
    TRL_WORKER_HOST_ID: z
      .string()
      .regex(
        sandboxHostIdPattern,
        'TRL_WORKER_HOST_ID must be 1–100 letters, digits, ".", "_" or "-", starting with a letter or digit',
      )
      .optional(),
  })
  .refine((c) => !c.TRL_UPSTREAM_BASE_URL || c.TRL_UPSTREAM_API_KEY, {
    message: 'TRL_UPSTREAM_API_KEY is required with TRL_UPSTREAM_BASE_URL',
    path: ['TRL_UPSTREAM_API_KEY'],
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
