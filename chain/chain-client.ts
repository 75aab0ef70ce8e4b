// The one interface the validator uses to talk to a chain: Subtensor through @polkadot/api in
// production, the file-backed local chain offline. Shapes are plain JSON so they can cross
// Temporal boundaries unchanged.
import { z } from 'zod';

/** Uid 65535 is "no neuron": a winner-take-all weight vector is `[uid]` with `[u16::MAX]`. */
export const maxWeight = 65535;

export const neuronSchema = z.object({
  uid: z.number().int().min(0).max(65535),
  hotkey: z.string().min(1),
  coldkey: z.string().optional(),
  /** Stake in TAO (alpha on dynamic subnets), as a float: used for weighting, never for money. */
  stakeTao: z.number().nonnegative(),
  validatorPermit: z.boolean(),
  /** Block of the neuron's last weight update (LastUpdate). */
  lastUpdate: z.number().int().nonnegative(),
  active: z.boolean(),
});
export type Neuron = z.infer<typeof neuronSchema>;

export const metagraphSchema = z.object({
  netuid: z.number().int().min(0).max(65535),
  block: z.number().int().nonnegative(),
  neurons: z.array(neuronSchema),
});
export type Metagraph = z.infer<typeof metagraphSchema>;

/** A miner's commitment, field 0 parsed as `"{sha256hex64}|{https url}"`. */
export const packCommitmentSchema = z.object({
  hotkey: z.string(),
  packHash: z.string().regex(/^[0-9a-f]{64}$/),
  url: z.string().url(),
  /** Block at which the commitment was recorded: the earliest block owns a hash. */
  block: z.number().int().nonnegative(),
});
export type PackCommitment = z.infer<typeof packCommitmentSchema>;

/** A commitment that could not be used, kept with the reason so operators can see why. */
export const skippedCommitmentSchema = z.object({
  hotkey: z.string(),
  block: z.number().int().nonnegative().optional(),
  reason: z.string(),
  /** The raw field, truncated to 200 characters: it is hostile input. */
  raw: z.string(),
});
export type SkippedCommitment = z.infer<typeof skippedCommitmentSchema>;

export interface CommitmentsRead {
  block: number;
  commitments: PackCommitment[];
  skipped: SkippedCommitment[];
}

/** The hyperparameters that decide whether and how weights may be set. */
export const weightSettingsSchema = z.object({
  block: z.number().int().nonnegative(),
  tempo: z.number().int().nonnegative(),
  weightsRateLimit: z.number().int().nonnegative(),
  weightsVersionKey: z.number().int().nonnegative(),
  minAllowedWeights: z.number().int().nonnegative(),
  maxWeightsLimit: z.number().int().nonnegative(),
  commitRevealEnabled: z.boolean(),
  /** 2 = hash commit + reveal; 4 = drand timelocked commits (reveal done by the chain). */
  commitRevealVersion: z.number().int().optional(),
  revealPeriodEpochs: z.number().int().nonnegative(),
  /** Kappa as a fraction in [0, 1] (the chain stores it as u16 / 65535). */
  kappa: z.number().min(0).max(1),
});
export type WeightSettings = z.infer<typeof weightSettingsSchema>;

/** One validator's weight row, as the chain stores it (u16 values, not normalised). */
export const weightRowSchema = z.object({
  validatorUid: z.number().int(),
  validatorHotkey: z.string(),
  weights: z.array(z.object({ uid: z.number().int(), value: z.number().int().min(0).max(65535) })),
});
export type WeightRow = z.infer<typeof weightRowSchema>;

export type WeightsMode = 'direct' | 'commit' | 'reveal' | 'timelocked';

export interface WeightsSubmission {
  mode: WeightsMode;
  /** Block in which the extrinsic was included (or recorded, on the local chain). */
  block: number;
  uids: number[];
  values: number[];
  /** Extrinsic hash on Subtensor; an id on the local chain. */
  transaction: string;
  /** For commits: the first block at which the reveal may be sent. */
  revealFromBlock?: number;
}

export interface CommitmentReceipt {
  block: number;
  transaction: string;
  text: string;
}

/**
 * Reads are open to anyone; writes sign with the client's own key (a validator's hotkey for
 * weights, a miner's for commitments). A chain-side refusal throws ChainError.
 */
export interface ChainClient {
  readonly kind: 'local' | 'subtensor';
  /** ss58 address of the signing key, if the client has one. */
  readonly signer?: string;
  currentBlock(): Promise<number>;
  metagraph(netuid: number): Promise<Metagraph>;
  commitments(netuid: number): Promise<CommitmentsRead>;
  weightSettings(netuid: number): Promise<WeightSettings>;
  /** The subnet owner's hotkey (SubnetOwnerHotkey), undefined when the chain has none. */
  subnetOwnerHotkey(netuid: number): Promise<string | undefined>;
  /** Every validator's current weight row (for the consensus preview). */
  weights(netuid: number): Promise<WeightRow[]>;
  /** Commits field 0 = text for the signer (Commitments.set_commitment). */
  setCommitment(netuid: number, text: string): Promise<CommitmentReceipt>;
  /**
   * Sets the signer's weights after preflight checks (registered, permit, limits, version key,
   * rate limit): directly when commit-reveal is off, as a commit when it is on.
   */
  setWeights(netuid: number, uids: number[], values: number[]): Promise<WeightsSubmission>;
  /** Sends every earlier commit whose reveal window is open; returns what was revealed. */
  revealDueWeights(netuid: number): Promise<WeightsSubmission[]>;
  close(): Promise<void>;
}
