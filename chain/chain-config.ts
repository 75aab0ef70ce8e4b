// Which chain the validator talks to and how the seat evaluates, from the environment (zod: each
// bad value names its variable). Secrets (the hotkey) are read elsewhere and never kept here.
import { z } from 'zod';
import { localChainFile } from '../common/data-layout.ts';
import { ConfigError } from '../common/config-error.ts';
import { settingsShape } from '../common/settings/setting.ts';
import { chainSettings } from '../common/settings/chain-settings.ts';
import { seatConfigSchema, type SeatConfig } from '../contracts/seat.ts';

const chainConfigSchema = z
  .object(
    settingsShape(chainSettings, [
      'TRL_CHAIN',
      'TRL_CHAIN_ENDPOINT',
      'TRL_NETUID',
      'TRL_LOCAL_CHAIN_FILE',
      'TRL_LOCAL_CHAIN_BLOCK_MS',
      'TRL_LOCAL_VALIDATOR_URI',
      'TRL_CYCLE_INTERVAL_SEC',
      'TRL_SEAT_AGENT',
      'TRL_SEAT_SCENARIOS',
      'TRL_SEAT_SCENARIOS_DIR',
      'TRL_SEAT_REPEATS',
      'TRL_SEAT_PAIRING',
      'TRL_SEAT_PAIRED_WINDOW',
      'TRL_SEAT_BOOTSTRAP_RESAMPLES',
      'TRL_SEAT_CONFIDENCE',
      'TRL_FALLBACK_UID',
      'TRL_SEAT_MIN_SUBMISSION_INTERVAL_SEC',
    ]),
  )
  .refine((c) => c.TRL_CHAIN !== 'subtensor' || c.TRL_CHAIN_ENDPOINT, {
    message: 'TRL_CHAIN_ENDPOINT is required with TRL_CHAIN=subtensor',
    path: ['TRL_CHAIN_ENDPOINT'],
  });

/** The local chain's file defaults to the data directory's (common/data-layout.ts), hence outside the declaration. */
export type ChainConfig = z.infer<typeof chainConfigSchema> & { TRL_LOCAL_CHAIN_FILE: string };

export function readChainConfig(env: NodeJS.ProcessEnv = process.env): ChainConfig {
  const parsed = chainConfigSchema.safeParse(env);
  if (!parsed.success)
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
  return { ...parsed.data, TRL_LOCAL_CHAIN_FILE: parsed.data.TRL_LOCAL_CHAIN_FILE ?? localChainFile };
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
