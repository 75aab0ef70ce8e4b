// The local chain's file: one subnet per netuid with the storage the validator reads and writes.
import { z } from 'zod';
import { neuronSchema } from '../chain-client.ts';

/** A neuron as the chain stores it: the metagraph's fields (activity is derived) and when it registered. */
const neuronRecordSchema = neuronSchema.omit({ active: true }).extend({ registeredAt: z.number().int().nonnegative() });

const subnetSchema = z.object({
  tempo: z.number().int().positive(),
  weightsRateLimit: z.number().int().nonnegative(),
  weightsVersionKey: z.number().int().nonnegative(),
  minAllowedWeights: z.number().int().nonnegative(),
  maxWeightsLimit: z.number().int().min(0).max(65535),
  commitRevealEnabled: z.boolean(),
  revealPeriodEpochs: z.number().int().nonnegative(),
  /** u16 on chain; kept as the fraction. */
  kappa: z.number().min(0).max(1),
  neurons: z.array(neuronRecordSchema),
  /** Field 0 of each hotkey's commitment, with the block it was made at. */
  commitments: z.record(z.string(), z.object({ text: z.string(), block: z.number().int().nonnegative() })),
  /** Weight rows by validator uid. */
  weights: z.record(
    z.string(),
    z.array(z.object({ uid: z.number().int(), value: z.number().int().min(0).max(65535) })),
  ),
  /** Commit-reveal v2: the hashes each hotkey committed, waiting for their reveal. */
  weightCommits: z
    .record(
      z.string(),
      z.array(z.object({ hash: z.string(), commitBlock: z.number().int(), commitEpoch: z.number().int() })),
    )
    .default({}),
  /** The subnet owner's hotkey (SubnetOwnerHotkey), when one is set. */
  ownerHotkey: z.string().optional(),
});
export type LocalSubnet = z.infer<typeof subnetSchema>;

export const localChainStateSchema = z.object({
  version: z.literal(1),
  /** Wall-clock origin of block 0; blocks advance with time. */
  genesisMs: z.number().int().nonnegative(),
  blockMs: z.number().int().positive(),
  subnets: z.record(z.string(), subnetSchema),
  transactions: z.number().int().nonnegative(),
});
export type LocalChainState = z.infer<typeof localChainStateSchema>;

/** Hyperparameters close to a live subnet's, with a short rate limit so cycles run offline. */
export function newSubnet(overrides: Partial<LocalSubnet> = {}): LocalSubnet {
  return {
    tempo: 360,
    weightsRateLimit: 10,
    weightsVersionKey: 0,
    minAllowedWeights: 1,
    maxWeightsLimit: 65535,
    commitRevealEnabled: false,
    revealPeriodEpochs: 1,
    kappa: 0.5,
    neurons: [],
    commitments: {},
    weights: {},
    weightCommits: {},
    ...overrides,
  };
}
