import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { WeightRow } from './chain-client.ts';
import { previewYumaConsensus, stakeWeightedQuantile, type YumaValidator } from './yuma-consensus.ts';

const full = 65535;
const close = (actual: number, expected: number, label = '') =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${label} ${actual} ≠ ${expected}`);

function validator(uid: number, stakeTao: number, extra: Partial<YumaValidator> = {}): YumaValidator {
  return { uid, hotkey: `validator-${uid}`, stakeTao, ...extra };
}

function row(validatorUid: number, weights: Record<number, number>): WeightRow {
  return {
    validatorUid,
    validatorHotkey: `validator-${validatorUid}`,
    weights: Object.entries(weights).map(([uid, value]) => ({ uid: Number(uid), value })),
  };
}

const miner = (preview: ReturnType<typeof previewYumaConsensus>, uid: number) =>
  preview.miners.find((entry) => entry.uid === uid)!;
const validatorOf = (preview: ReturnType<typeof previewYumaConsensus>, uid: number) =>
  preview.validators.find((entry) => entry.uid === uid)!;

test("the quantile follows Subtensor's own weighted-median test figures", () => {
  // Figures from opentensor/subtensor src/tests/math.rs (test_math_weighted_median_col): stakes 0.75
  // and 0.25 scoring 0.2 / 0.3 and 0.4 / 0.1; medians 0.3 at κ = 0.24, 0.2 at κ = 0.26, 0.1 at κ = 0.76.
  assert.equal(stakeWeightedQuantile([0.2, 0.3], [0.75, 0.25], 0.24), 0.3);
  assert.equal(stakeWeightedQuantile([0.2, 0.3], [0.75, 0.25], 0.26), 0.2);
  assert.equal(stakeWeightedQuantile([0.4, 0.1], [0.75, 0.25], 0.76), 0.1);
  assert.equal(stakeWeightedQuantile([0.4, 0.1], [0.75, 0.25], 0.26), 0.4);
  // And from test_math_weighted_median: stakes 0.49 / 0.01 / 0.5 scoring 0.5 / 0.7 / 1 at κ = 0.51 → 0.7.
  assert.equal(stakeWeightedQuantile([0.5, 0.7, 1], [0.49, 0.01, 0.5], 0.51), 0.7);
  assert.equal(stakeWeightedQuantile([], [], 0.5), 0);
});

test('the quantile boundary is inclusive: exactly κ of the stake at ≥ w keeps w', () => {
  assert.equal(stakeWeightedQuantile([1, 0], [0.5, 0.5], 0.5), 1);
  assert.equal(stakeWeightedQuantile([1, 0], [0.5 - 1e-6, 0.5 + 1e-6], 0.5), 0);
  assert.equal(stakeWeightedQuantile([0.3, 0.9], [0.6, 0.4], 0), 0.9); // κ = 0: the largest score
  assert.equal(stakeWeightedQuantile([0.3, 0.9], [0.6, 0.4], 1), 0.3); // κ = 1: the smallest
});

test('one validator: consensus is its own row, nothing is clipped', () => {
  const preview = previewYumaConsensus({ validators: [validator(0, 100)], weights: [row(0, { 5: full, 6: 21845 })] });
  close(miner(preview, 5).consensus, 0.75);
  close(miner(preview, 6).consensus, 0.25);
  close(miner(preview, 5).incentive, 0.75);
  close(validatorOf(preview, 0).agreement, 1);
  close(validatorOf(preview, 0).clippedWeightShare, 1);
  assert.deepEqual(
    preview.payees.map((payee) => payee.uid),
    [5, 6],
  );
});

test("60/40 stake backing different winners: the 60% side's winner takes all", () => {
  const preview = previewYumaConsensus({
    validators: [validator(0, 60), validator(1, 40)],
    weights: [row(0, { 10: full }), row(1, { 11: full })],
  });
  assert.equal(miner(preview, 10).consensus, 1);
  assert.equal(miner(preview, 11).consensus, 0);
  close(miner(preview, 10).rank, 0.6);
  assert.equal(miner(preview, 10).incentive, 1);
  assert.equal(miner(preview, 11).incentive, 0);
  close(validatorOf(preview, 0).agreement, 1);
  assert.equal(validatorOf(preview, 1).agreement, 0);
  assert.equal(validatorOf(preview, 1).weights[0]!.clippedWeight, 0);
  assert.deepEqual(preview.payees, [{ uid: 10, incentive: 1 }]);
});

test('an exact 50/50 split: both sides hold exactly κ, nothing is clipped, the winners share 0.5 / 0.5', () => {
  const preview = previewYumaConsensus({
    validators: [validator(0, 50), validator(1, 50)],
    weights: [row(0, { 10: full }), row(1, { 11: full })],
  });
  assert.equal(miner(preview, 10).consensus, 1);
  assert.equal(miner(preview, 11).consensus, 1);
  close(miner(preview, 10).incentive, 0.5);
  close(miner(preview, 11).incentive, 0.5);
  assert.equal(validatorOf(preview, 0).agreement, 1);
  assert.equal(validatorOf(preview, 1).agreement, 1);
  assert.deepEqual(
    preview.payees.map((payee) => payee.uid),
    [10, 11],
  ); // equal incentive: lower uid first
  // The chain's default κ (32767 / 65535, just under one half) gives the same result.
  const chainKappa = previewYumaConsensus({
    validators: [validator(0, 50), validator(1, 50)],
    weights: [row(0, { 10: full }), row(1, { 11: full })],
    kappa: 32767 / 65535,
  });
  close(miner(chainKappa, 11).incentive, 0.5);
});

test('40/35/25 where the two smaller validators agree: their winner takes all', () => {
  const preview = previewYumaConsensus({
    validators: [validator(0, 40), validator(1, 35), validator(2, 25)],
    weights: [row(0, { 20: full }), row(1, { 21: full }), row(2, { 21: full })],
  });
  assert.equal(miner(preview, 20).consensus, 0); // 40% < κ
  assert.equal(miner(preview, 21).consensus, 1); // 60% ≥ κ
  assert.equal(miner(preview, 21).incentive, 1);
  assert.equal(validatorOf(preview, 0).agreement, 0);
  close(validatorOf(preview, 1).clippedWeightShare, 35 / 60);
  close(validatorOf(preview, 2).clippedWeightShare, 25 / 60);
});

test('40/35/25 with split rows: hand-worked clipping and incentives', () => {
  // Column 20: 0.7 (40%), 0 (35%), 0.2 (25%) → stake at ≥ 0.7 is 40%, at ≥ 0.2 is 65% → c = 0.2.
  // Column 21: 0.3 (40%), 1 (35%), 0.8 (25%) → stake at ≥ 1 is 35%, at ≥ 0.8 is 60% → c = 0.8.
  // R_20 = 0.4·0.2 + 0.25·0.2 = 0.13; R_21 = 0.4·0.3 + 0.35·0.8 + 0.25·0.8 = 0.6; ΣR = 0.73.
  const preview = previewYumaConsensus({
    validators: [validator(0, 40), validator(1, 35), validator(2, 25)],
    weights: [row(0, { 20: 7000, 21: 3000 }), row(1, { 21: 500 }), row(2, { 20: 2000, 21: 8000 })],
  });
  close(miner(preview, 20).consensus, 0.2, 'c20');
  close(miner(preview, 21).consensus, 0.8, 'c21');
  close(miner(preview, 20).rank, 0.13, 'R20');
  close(miner(preview, 21).rank, 0.6, 'R21');
  close(miner(preview, 20).incentive, 0.13 / 0.73, 'I20');
  close(miner(preview, 21).incentive, 0.6 / 0.73, 'I21');
  close(validatorOf(preview, 0).agreement, 0.5, 'agreement 0');
  close(validatorOf(preview, 1).agreement, 0.8, 'agreement 1');
  close(validatorOf(preview, 2).agreement, 1, 'agreement 2');
  close(validatorOf(preview, 0).clippedWeightShare, 0.2 / 0.73, 'share 0');
  assert.deepEqual(
    preview.payees.map((payee) => payee.uid),
    [21, 20],
  );
});

test('a validator with no weights is left out of the stake (it would otherwise have swung the result)', () => {
  // Counting its 20% with zeros would leave miner 30 at 45% < κ; without it, 45 / 80 = 56%.
  const preview = previewYumaConsensus({
    validators: [validator(0, 45), validator(1, 35), validator(2, 20)],
    weights: [row(0, { 30: full }), row(1, { 31: full })],
  });
  const silent = validatorOf(preview, 2);
  assert.equal(silent.voting, false);
  assert.equal(silent.excludedBecause, 'no weights set');
  assert.equal(silent.stakeShare, 0);
  close(validatorOf(preview, 0).stakeShare, 45 / 80);
  assert.equal(miner(preview, 30).incentive, 1);
});

test('all weights zero: nobody votes, every miner gets 0 and nobody is paid', () => {
  const preview = previewYumaConsensus({
    validators: [validator(0, 60), validator(1, 40)],
    weights: [row(0, { 10: 0 }), row(1, { 10: 0, 11: 0 })],
  });
  assert.deepEqual(preview.miners, []);
  assert.deepEqual(preview.payees, []);
  for (const entry of preview.validators) {
    assert.equal(entry.voting, false);
    assert.match(entry.excludedBecause!, /all weights zero/);
  }
});

test('no permit, no stake and self-weights do not count; stray rows are reported', () => {
  const preview = previewYumaConsensus({
    validators: [validator(0, 10), validator(1, 1000, { validatorPermit: false }), validator(2, 0), validator(3, 5)],
    weights: [
      row(0, { 40: full }),
      row(1, { 41: full }),
      row(2, { 41: full }),
      row(3, { 3: full }),
      row(9, { 41: full }),
      { validatorUid: 0, validatorHotkey: 'someone-else', weights: [{ uid: 41, value: full }] },
    ],
  });
  assert.equal(validatorOf(preview, 1).excludedBecause, 'no validator permit');
  assert.equal(validatorOf(preview, 2).excludedBecause, 'no stake');
  assert.match(validatorOf(preview, 3).excludedBecause!, /self-weight/);
  assert.deepEqual(preview.payees, [{ uid: 40, incentive: 1 }]);
  assert.deepEqual(
    preview.ignoredRows.map((ignored) => ignored.validatorUid),
    [9, 0],
  );
  // The subnet owner's self-weight is kept, as on chain.
  const owner = previewYumaConsensus({ validators: [validator(3, 5)], weights: [row(3, { 3: full })], ownerUid: 3 });
  assert.deepEqual(owner.payees, [{ uid: 3, incentive: 1 }]);
});

test('bad input is refused with a clear error', () => {
  assert.throws(
    () => previewYumaConsensus({ validators: [validator(0, -1)], weights: [] }),
    /stake must be a finite number/,
  );
  assert.throws(
    () => previewYumaConsensus({ validators: [validator(0, 1), validator(0, 2)], weights: [] }),
    /listed twice/,
  );
  assert.throws(() => previewYumaConsensus({ validators: [], weights: [], kappa: 1.5 }), /kappa must be in \[0, 1\]/);
});

test('property: incentives sum to 1 (or all 0) and clipping never adds weight', () => {
  const rowArbitrary = fc.dictionary(fc.integer({ min: 10, max: 15 }).map(String), fc.integer({ min: 0, max: full }));
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.integer({ min: 0, max: 1000 }), rowArbitrary), { minLength: 1, maxLength: 6 }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      (entries, kappa) => {
        const preview = previewYumaConsensus({
          validators: entries.map(([stake], uid) => validator(uid, stake)),
          weights: entries.map(([, weights], uid) =>
            row(uid, Object.fromEntries(Object.entries(weights).map(([key, value]) => [Number(key), value]))),
          ),
          kappa,
        });
        const total = preview.miners.reduce((sum, entry) => sum + entry.incentive, 0);
        const sumsRight = Math.abs(total - 1) < 1e-9 || preview.miners.every((entry) => entry.incentive === 0);
        const clipsDown = preview.validators.every(
          (entry) =>
            entry.weights.every((weight) => weight.clippedWeight <= weight.weight) && entry.agreement <= 1 + 1e-9,
        );
        return sumsRight && clipsDown;
      },
    ),
  );
});
