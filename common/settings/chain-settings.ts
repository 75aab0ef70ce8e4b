// Which chain the validator talks to, with which key, and how the seat evaluates challengers (read
// by chain/chain-config.ts and chain/subtensor/hotkey.ts; the hotkey is never kept in a config).
import { z } from 'zod';
import { agentNames, defaultAgent } from '../../contracts/agent-kinds.ts';
import { settingTable } from './setting.ts';

const secretText = z.string().trim().min(1).optional();

export const chainSettings = settingTable({
  TRL_CHAIN: {
    schema: z
      .enum(['local', 'subtensor'], { message: 'TRL_CHAIN must be "local" (the embedded file chain) or "subtensor"' })
      .default('local'),
    description: '`local` (the embedded file chain) or `subtensor`.',
  },
  TRL_CHAIN_ENDPOINT: {
    schema: z
      .string()
      .regex(/^wss?:\/\//, 'TRL_CHAIN_ENDPOINT must be a ws:// or wss:// URL of a Subtensor node')
      .optional(),
    description: 'A Subtensor node, `ws://` or `wss://` (required with `TRL_CHAIN=subtensor`).',
  },
  TRL_CHAIN_HOTKEY_URI: {
    schema: secretText,
    secret: true,
    description:
      "The validator's (or miner's) signing key on Subtensor as a secret URI or mnemonic; never logged. Set this or `TRL_CHAIN_HOTKEY_FILE`, not both.",
  },
  TRL_CHAIN_HOTKEY_FILE: {
    schema: secretText,
    description:
      'The signing key as a file: a bittensor wallet hotkey JSON (`secretPhrase` or `secretSeed`), or a text file holding the URI or mnemonic.',
  },
  TRL_NETUID: {
    schema: z.coerce.number().int().min(0).max(65535).default(11),
    description: 'The subnet.',
  },
  TRL_LOCAL_CHAIN_FILE: {
    schema: z.string().optional(),
    defaultText: '`.data/chain/local-chain.json`',
    description: "The local chain's state.",
  },
  TRL_LOCAL_CHAIN_BLOCK_MS: {
    schema: z.coerce.number().int().positive().default(12_000),
    description: 'Block time of a newly created local chain, in milliseconds.',
  },
  TRL_LOCAL_VALIDATOR_URI: {
    schema: z.string().default('//TrlValidator'),
    description:
      "The local validator's key when none is configured: a dev URI, fine offline only (registered with 1000 τ and a permit).",
  },
  TRL_CYCLE_INTERVAL_SEC: {
    schema: z.coerce.number().int().min(1).default(300),
    description: 'How often the Schedule runs the chain cycle (commitments → challenges → weights).',
  },
  TRL_SEAT_AGENT: {
    schema: z.enum(agentNames).default(defaultAgent),
    description: 'The agent of seat evaluations.',
  },
  TRL_SEAT_SCENARIOS: {
    schema: z.string().default(''),
    defaultText: 'the active set',
    description: 'Comma-separated scenario names the seat evaluates.',
  },
  TRL_SEAT_SCENARIOS_DIR: {
    schema: z.string().optional(),
    defaultText: '`scenarios/`',
    description: "Where the seat's scenarios live.",
  },
  TRL_SEAT_REPEATS: {
    schema: z.coerce.number().int().min(1).max(10).default(1),
    description: 'Evaluations per side per challenge (1 to 10).',
  },
  TRL_SEAT_PAIRING: {
    schema: z.enum(['interleaved', 'sequential']).default('interleaved'),
    description:
      'How the two sides are scheduled: `interleaved` (scenario by scenario in lockstep) or `sequential` (the challenger whole, then the incumbent).',
  },
  TRL_SEAT_PAIRED_WINDOW: {
    schema: z.coerce.number().int().min(1).max(64).default(2),
    description: 'How many scenario pairs run at once when interleaved (1 to 64).',
  },
  TRL_SEAT_BOOTSTRAP_RESAMPLES: {
    schema: z.coerce.number().int().min(10_000).default(10_000),
    description: "Resamples of the decision rule's bootstrap (at least 10 000).",
  },
  TRL_SEAT_CONFIDENCE: {
    schema: z.coerce
      .number()
      .min(0.5, 'TRL_SEAT_CONFIDENCE is a level such as 0.99')
      .lt(1, 'TRL_SEAT_CONFIDENCE must be below 1')
      .default(0.998),
    description: "One-sided level of the bootstrap's lower bound on the challenger's margin.",
  },
  TRL_SEAT_MIN_SUBMISSION_INTERVAL_SEC: {
    schema: z.coerce.number().int().nonnegative().default(3600),
    description:
      'Least time between two accepted submissions of one hotkey (0: none); one pending challenge per hotkey always.',
  },
  TRL_FALLBACK_UID: {
    schema: z.coerce.number().int().min(0).max(65534).optional(),
    defaultText: "the subnet owner's uid, else 0",
    description: 'The uid that gets all weight when no policy holds the seat or the winner cannot be weighted.',
  },
});
