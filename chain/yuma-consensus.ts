// A pure preview of Yuma Consensus: given validators' stake and weight rows, which miners would the
// chain's epoch pay, and how much of each validator's weight would survive clipping? Meant for
// `trl consensus`, to show operators what the chain will do before it does it.
//
// It follows the consensus half of Subtensor's epoch (pallets/subtensor/src/epoch/run_epoch.rs,
// `epoch_mechanism`): stake of permitted, voting validators normalised to 1; rows normalised to 1
// with self-weights masked; consensus c_j = stake-weighted κ-quantile of column j; clipped weights
// W̄ = min(W, c); rank R_j = Σ_i S_i·W̄_ij; incentive I = R / ΣR. Bonds and dividends are not modelled.
//
// Tie behaviour, established from Subtensor's `weighted_median` (epoch/math.rs, read at commit
// 14bc6f9f of opentensor/subtensor, and its tests in src/tests/math.rs): with minority = 1 − κ it
// returns the score v for which stake(score < v) ≤ minority and stake(score ≤ v) > minority. That is
// the LARGEST v such that the stake giving ≥ v is ≥ κ — the boundary is inclusive, so with κ = 0.5 a
// side holding exactly half the stake keeps its weight. An exact 50/50 split on two different winners
// therefore clips nothing: both keep consensus 1 and share the incentive 0.5 / 0.5. Validators with
// stake count with score 0 in columns they did not weight; no voting stake means consensus 0.
//
// One deliberate difference: the chain counts every active permit holder's stake, so a validator
// whose row is empty pulls consensus toward 0 until the activity cutoff drops it. The preview
// leaves validators without weights out of the stake from the start (it has no LastUpdate blocks).
import type { WeightRow } from './chain-client.ts';

/** A validator as the preview needs it; a metagraph Neuron fits as is. */
export interface YumaValidator {
  uid: number;
  hotkey: string;
  stakeTao: number;
  /** Only permit holders' weights count on chain; true when omitted. */
  validatorPermit?: boolean;
}

export interface YumaInput {
  validators: readonly YumaValidator[];
  weights: readonly WeightRow[];
  /** The majority fraction, 0.5 by default (the chain's default is 32767 / 65535). */
  kappa?: number;
  /** The subnet owner's uid: the only validator whose weight on itself is not masked. */
  ownerUid?: number;
}

export interface MinerConsensus {
  uid: number;
  /** c_j: the stake-weighted κ-quantile of the normalised weights on this miner. */
  consensus: number;
  /** R_j = Σ_i S_i · min(W_ij, c_j). */
  rank: number;
  /** R_j / Σ R: the miner's share of the incentive (0 everywhere when nothing survives clipping). */
  incentive: number;
}

export interface ValidatorAgreement {
  uid: number;
  hotkey: string;
  voting: boolean;
  /** Why the validator's weights do not count, when they do not. */
  excludedBecause?: string;
  /** Share of the voting stake, S_i (0 when not voting). */
  stakeShare: number;
  /** Its normalised row and the same row clipped at consensus, by miner uid. */
  weights: { uid: number; weight: number; clippedWeight: number }[];
  /** Σ_j W̄_ij in [0, 1]: how much of its weight survived clipping (Subtensor's validator trust). */
  agreement: number;
  /** S_i · Σ_j W̄_ij / Σ R: its share of all rank, i.e. of where the incentive went. */
  clippedWeightShare: number;
}

export interface YumaPreview {
  kappa: number;
  /** Every miner uid weighted by a voting validator, by uid. */
  miners: MinerConsensus[];
  /** In input order. */
  validators: ValidatorAgreement[];
  /** Miners with incentive > 0, highest first (uid breaks ties). */
  payees: { uid: number; incentive: number }[];
  /** Weight rows that match no usable validator, with the reason. */
  ignoredRows: { validatorUid: number; reason: string }[];
}

/**
 * Float rounding slack for the "stake giving ≥ w is ≥ κ" test: normalised stakes such as 0.6 + 0.4
 * may sum to 0.9999999999999999. Subtensor works in I32F32 fixed point (steps of 2^-32 ≈ 2.3e-10),
 * so anything closer than that is a tie there too.
 */
const stakeTolerance = 1e-12;

/**
 * The largest value v such that the stake of entries with value ≥ v is at least κ (stakes summing to 1).
 * Empty input gives 0, as Subtensor's median does.
 */
export function stakeWeightedQuantile(values: readonly number[], stakes: readonly number[], kappa: number): number {
  if (values.length !== stakes.length) throw new RangeError('values and stakes differ in length');
  const order = values.map((_, index) => index).sort((a, b) => values[b]! - values[a]!);
  let stakeAtOrAbove = 0;
  for (let position = 0; position < order.length; position++) {
    const index = order[position]!;
    stakeAtOrAbove += stakes[index]!;
    const next = order[position + 1];
    if (next !== undefined && values[next] === values[index]) continue; // take every tied entry first
    if (stakeAtOrAbove >= kappa - stakeTolerance) return values[index]!;
  }
  return order.length === 0 ? 0 : values[order[order.length - 1]!]!;
}

function validateInput(input: YumaInput, kappa: number): void {
  if (!Number.isFinite(kappa) || kappa < 0 || kappa > 1) throw new RangeError(`kappa must be in [0, 1], got ${kappa}`);
  const seen = new Set<number>();
  for (const validator of input.validators) {
    if (!Number.isFinite(validator.stakeTao) || validator.stakeTao < 0) {
      throw new RangeError(
        `validator uid ${validator.uid} has stake ${validator.stakeTao}; stake must be a finite number ≥ 0`,
      );
    }
    if (seen.has(validator.uid)) throw new RangeError(`validator uid ${validator.uid} is listed twice`);
    seen.add(validator.uid);
  }
}

/** A row as normalised weights by miner uid, self-weight masked (duplicate uids are summed). */
function normalisedRow(row: WeightRow, maskSelf: boolean): Map<number, number> {
  const values = new Map<number, number>();
  for (const { uid, value } of row.weights) {
    if (maskSelf && uid === row.validatorUid) continue;
    values.set(uid, (values.get(uid) ?? 0) + value);
  }
  const total = [...values.values()].reduce((sum, value) => sum + value, 0);
  if (total === 0) return new Map();
  return new Map([...values].map(([uid, value]) => [uid, value / total]));
}

export function previewYumaConsensus(input: YumaInput): YumaPreview {
  const kappa = input.kappa ?? 0.5;
  validateInput(input, kappa);

  const ignoredRows: YumaPreview['ignoredRows'] = [];
  const rowsByValidator = new Map<number, WeightRow>();
  const hotkeyByUid = new Map(input.validators.map((validator) => [validator.uid, validator.hotkey]));
  for (const row of input.weights) {
    const hotkey = hotkeyByUid.get(row.validatorUid);
    if (hotkey === undefined)
      ignoredRows.push({ validatorUid: row.validatorUid, reason: 'no validator with this uid' });
    else if (hotkey !== row.validatorHotkey)
      ignoredRows.push({
        validatorUid: row.validatorUid,
        reason: `row is from hotkey ${row.validatorHotkey}, the uid now belongs to ${hotkey}`,
      });
    else if (rowsByValidator.has(row.validatorUid))
      ignoredRows.push({ validatorUid: row.validatorUid, reason: 'a second row for this validator' });
    else rowsByValidator.set(row.validatorUid, row);
  }

  // Who votes: permit, stake, and a row with some weight left after masking its self-weight.
  const rows = input.validators.map((validator) => {
    const row = rowsByValidator.get(validator.uid);
    const weights = row ? normalisedRow(row, validator.uid !== input.ownerUid) : new Map<number, number>();
    let excludedBecause: string | undefined;
    if (validator.validatorPermit === false) excludedBecause = 'no validator permit';
    else if (validator.stakeTao === 0) excludedBecause = 'no stake';
    else if (!row) excludedBecause = 'no weights set';
    else if (weights.size === 0) excludedBecause = 'all weights zero (self-weight not counted)';
    return { validator, weights, excludedBecause };
  });
  const voters = rows.filter((row) => row.excludedBecause === undefined);
  const votingStake = voters.reduce((sum, row) => sum + row.validator.stakeTao, 0);
  const stakeShare = (row: (typeof rows)[number]) =>
    row.excludedBecause === undefined ? row.validator.stakeTao / votingStake : 0;

  const minerUids = [...new Set(voters.flatMap((row) => [...row.weights.keys()]))].sort((a, b) => a - b);
  const voterStakes = voters.map(stakeShare);
  const consensus = new Map(
    minerUids.map((uid) => [
      uid,
      stakeWeightedQuantile(
        voters.map((row) => row.weights.get(uid) ?? 0),
        voterStakes,
        kappa,
      ),
    ]),
  );

  const rank = new Map(minerUids.map((uid) => [uid, 0]));
  const clippedRows = rows.map((row) => {
    const share = stakeShare(row);
    const weights = [...row.weights]
      .sort(([a], [b]) => a - b)
      .map(([uid, weight]) => {
        const clippedWeight = row.excludedBecause === undefined ? Math.min(weight, consensus.get(uid)!) : 0;
        if (share > 0) rank.set(uid, rank.get(uid)! + share * clippedWeight);
        return { uid, weight, clippedWeight };
      });
    return { row, share, weights, agreement: weights.reduce((sum, weight) => sum + weight.clippedWeight, 0) };
  });
  const totalRank = [...rank.values()].reduce((sum, value) => sum + value, 0);

  const miners = minerUids.map((uid) => ({
    uid,
    consensus: consensus.get(uid)!,
    rank: rank.get(uid)!,
    incentive: totalRank > 0 ? rank.get(uid)! / totalRank : 0,
  }));
  const validators = clippedRows.map(({ row, share, weights, agreement }) => ({
    uid: row.validator.uid,
    hotkey: row.validator.hotkey,
    voting: row.excludedBecause === undefined,
    ...(row.excludedBecause === undefined ? {} : { excludedBecause: row.excludedBecause }),
    stakeShare: share,
    weights,
    agreement,
    clippedWeightShare: totalRank > 0 ? (share * agreement) / totalRank : 0,
  }));
  const payees = miners
    .filter((miner) => miner.incentive > 0)
    .sort((a, b) => b.incentive - a.incentive || a.uid - b.uid)
    .map(({ uid, incentive }) => ({ uid, incentive }));
  return { kappa, miners, validators, payees, ignoredRows };
}
