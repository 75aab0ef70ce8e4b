// The worker's configuration from its environment, checked with zod; each bad value names the
// variable and what it expects.
import { z } from 'zod';
import { ConfigError } from '../common/config-error.ts';

const configSchema = z.object({
  TRL_UPSTREAM_BASE_URL: z.string().url('TRL_UPSTREAM_BASE_URL must be an http(s) URL such as https://…/v1').optional(),
  TRL_UPSTREAM_API_KEY: z.string().min(1).optional(),
  TRL_UPSTREAM_TIMEOUT_SEC: z.coerce.number().positive().default(120),
  TRL_BUDGET_CAP_USD: z.coerce.number().positive('TRL_BUDGET_CAP_USD must be a positive number of USD').max(100).default(1),
  TRL_POLICY_REQUEST_TIMEOUT_SEC: z.coerce.number().positive().max(3600).default(300),
  TRL_SIM_TIME_SCALE: z.coerce.number().nonnegative().default(0.1),
  TRL_SIM_SCENARIOS_DIR: z.string().optional(),
  /** Spend ceilings of the ledger across attempts (gateway/spend/): per submission, all days; per UTC day. */
  TRL_SUBMISSION_CEILING_USD: z.coerce.number().positive('TRL_SUBMISSION_CEILING_USD must be a positive number of USD').default(30),
  TRL_DAILY_CEILING_USD: z.coerce.number().positive('TRL_DAILY_CEILING_USD must be a positive number of USD').default(500),
}).refine((c) => !c.TRL_UPSTREAM_BASE_URL || c.TRL_UPSTREAM_API_KEY, { message: 'TRL_UPSTREAM_API_KEY is required with TRL_UPSTREAM_BASE_URL', path: ['TRL_UPSTREAM_API_KEY'] })
  // A ceiling below the scenario cap could never admit a single attempt.
  .refine((c) => c.TRL_SUBMISSION_CEILING_USD >= c.TRL_BUDGET_CAP_USD, { message: 'TRL_SUBMISSION_CEILING_USD must be at least TRL_BUDGET_CAP_USD (the scenario cap)', path: ['TRL_SUBMISSION_CEILING_USD'] })
  .refine((c) => c.TRL_DAILY_CEILING_USD >= c.TRL_BUDGET_CAP_USD, { message: 'TRL_DAILY_CEILING_USD must be at least TRL_BUDGET_CAP_USD (the scenario cap)', path: ['TRL_DAILY_CEILING_USD'] });

export type WorkerConfig = z.infer<typeof configSchema>;

export function readWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
  }
  return parsed.data;
}
