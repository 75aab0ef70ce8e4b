// Which chain the validator talks to and how the seat evaluates, from the environment (zod: each
// bad value names its variable). Secrets (the hotkey) are read elsewhere and never kept here.
import { z } from 'zod';
import { localChainFile } from '../common/data-layout.ts';
import { ConfigError } from '../common/config-error.ts';
import { agentNames, defaultAgent } from '../contracts/agent-kinds.ts';
import { seatConfigSchema, type SeatConfig } from '../contracts/seat.ts';

const chainConfigSchema = z
  .object({
    TRL_CHAIN: z
      .enum(['local', 'subtensor'], { message: 'TRL_CHAIN must be "local" (the embedded file chain) or "subtensor"' })
      .default('local'),
    TRL_CHAIN_ENDPOINT: z
      .string()
      .regex(/^wss?:\/\//, 'TRL_CHAIN_ENDPOINT must be a ws:// or wss:// URL of a Subtensor node')
      .optional(),
    TRL_NETUID: z.coerce.number().int().min(0).max(65535).default(11),
    TRL_LOCAL_CHAIN_FILE: z.string().default(localChainFile),
    TRL_LOCAL_CHAIN_BLOCK_MS: z.coerce.number().int().positive().default(12_000),
    /** The local validator's key when none is configured: a dev URI, fine offline only. */
    TRL_LOCAL_VALIDATOR_URI: z.string().default('//TrlValidator'),
    TRL_CYCLE_INTERVAL_SEC: z.coerce.number().int().min(1).default(300),
    TRL_SEAT_AGENT: z.enum(agentNames).default(defaultAgent),
    TRL_SEAT_SCENARIOS: z.string().default(''),
    TRL_SEAT_SCENARIOS_DIR: z.string().optional(),
    TRL_SEAT_REPEATS: z.coerce.number().int().min(1).max(10).default(1),
    TRL_SEAT_PAIRING: z.enum(['interleaved', 'sequential']).default('interleaved'),
    TRL_SEAT_PAIRED_WINDOW: z.coerce.number().int().min(1).max(64).default(2),
    TRL_SEAT_BOOTSTRAP_RESAMPLES: z.coerce.number().int().min(10_000).default(10_000),
    TRL_SEAT_CONFIDENCE: z.coerce
      .number()
      .min(0.5, 'TRL_SEAT_CONFIDENCE is a level such as 0.99')
      .lt(1, 'TRL_SEAT_CONFIDENCE must be below 1')
      .default(0.998),
    /** Uid that gets all weight when no policy holds the seat or the winner's weights cannot be set; default the subnet
     * owner's, else 0. */
    TRL_FALLBACK_UID: z.coerce.number().int().min(0).max(65534).optional(),
    TRL_SEAT_MIN_SUBMISSION_INTERVAL_SEC: z.coerce.number().int().nonnegative().default(3600),
  })
  .refine((c) => c.TRL_CHAIN !== 'subtensor' || c.TRL_CHAIN_ENDPOINT, {
    message: 'TRL_CHAIN_ENDPOINT is required with TRL_CHAIN=subtensor',
    path: ['TRL_CHAIN_ENDPOINT'],
  });

export type ChainConfig = z.infer<typeof chainConfigSchema>;

export function readChainConfig(env: NodeJS.ProcessEnv = process.env): ChainConfig {
  const parsed = chainConfigSchema.safeParse(env);
  if (!parsed.success)
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
  return parsed.data;
}

export function seatConfigFrom(config: ChainConfig): SeatConfig {
  return seatConfigSchema.parse({
    netuid: config.TRL_NETUID,
    agent: config.TRL_SEAT_AGENT,
    scenarios: config.TRL_SEAT_SCENARIOS.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    scenariosDir: config.TRL_SEAT_SCENARIOS_DIR,
    repeats: config.TRL_SEAT_REPEATS,
    pairing: config.TRL_SEAT_PAIRING,
    pairedWindow: config.TRL_SEAT_PAIRED_WINDOW,
    bootstrapResamples: config.TRL_SEAT_BOOTSTRAP_RESAMPLES,
    confidence: config.TRL_SEAT_CONFIDENCE,
    minSubmissionIntervalSec: config.TRL_SEAT_MIN_SUBMISSION_INTERVAL_SEC,
  });
}
